#!/usr/bin/env python3
"""The cells of a workbook's sheets, for `xlsx_floor` to write again with libxlsxwriter alone.

    xlsx_floor_cells.py WORKBOOK.xlsx OUTDIR SHEET...

For each named sheet, writes OUTDIR/<n>.cells: one line per row, its cells separated by 0x1F, each
`s:<text>` (a string), `n<style>:<value>` (a number or date serial with its style index) or `e:` (a
blank with a format). Line breaks and 0x1F inside text become spaces: the lengths stay, and the writer
does the same work per byte. The sheet's XML is read in pieces, never whole.
"""
import html
import re
import sys
import zipfile

CELL = re.compile(
    r'<c r="[A-Z]+\d+"(?: s="(\d+)")?(?: t="inlineStr")?>'
    r'(?:<is><t(?: xml:space="preserve")?>(.*?)</t></is>|<v>(.*?)</v>)?</c>'
    r'|<c r="[A-Z]+\d+"(?: s="(\d+)")?/>', re.S)
ROW = re.compile(r'<row [^>]*>(.*?)</row>', re.S)


def sheet_paths(archive):
    """Sheet name to its XML part, from the workbook and its relationships."""
    workbook = archive.read("xl/workbook.xml").decode()
    rels = archive.read("xl/_rels/workbook.xml.rels").decode()
    targets = dict(re.findall(r'<Relationship Id="([^"]+)" Type="[^"]+" Target="([^"]+)"', rels))
    return {html.unescape(name): "xl/" + targets[rid]
            for name, rid in re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="([^"]+)"', workbook)}


def extract(archive, part, out):
    rows = 0
    with archive.open(part) as xml, open(out, "w", encoding="utf-8") as cells:
        pending = ""
        while True:
            chunk = xml.read(1 << 22)
            if not chunk and not pending:
                break
            pending += chunk.decode("utf-8", errors="surrogatepass") if chunk else ""
            end = pending.rfind("</row>")
            if end < 0:
                if not chunk:
                    break
                continue
            end += len("</row>")
            for row in ROW.finditer(pending, 0, end):
                line = []
                for m in CELL.finditer(row.group(1)):
                    style, text, value, blank = m.groups()
                    if text is not None:
                        line.append("s:" + html.unescape(text).replace("\n", " ").replace("\x1f", " "))
                    elif value is not None:
                        line.append("n%s:%s" % (style or "0", value))
                    else:
                        line.append("e:")
                cells.write("\x1f".join(line) + "\n")
                rows += 1
            pending = pending[end:]
            if not chunk:
                break
    return rows


def main():
    workbook, outdir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    with zipfile.ZipFile(workbook) as archive:
        paths = sheet_paths(archive)
        for index, name in enumerate(names, 1):
            rows = extract(archive, paths[name], "%s/%d.cells" % (outdir, index))
            print("%s: %d rows" % (name, rows))


if __name__ == "__main__":
    main()
