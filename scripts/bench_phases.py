#!/usr/bin/env python3
"""bench_phases.py LOG [TITLE]: the phases an iap-recon command logged at debug level (`phase done`, PhaseTimer),
one row each: wall time, CPU in user space and in the kernel, bytes read and written through system calls
(rchar, wchar) and from or to the device (read_bytes, write_bytes), and the process's peak RSS by the phase's end.
Prints nothing when the log has no phase."""
import re
import sys

FIELD = re.compile(r'(\w+)=("[^"]*"|\S+)')
NUMBERS = ("millis", "user_millis", "sys_millis", "rchar", "wchar", "read_bytes", "write_bytes", "peak_rss_kb")


def phases(path):
    """The phases of the log at `path`, in order, each a dict of its fields (the text handler's or JSON's)."""
    found = []
    with open(path, errors="replace") as log:
        for line in log:
            if "phase done" not in line:
                continue
            fields = {k: v.strip('"') for k, v in FIELD.findall(line)}
            if "phase" not in fields:
                # The text handler writes `phase=files`; a phase of several words runs to the next field.
                match = re.search(r"phase=(.*?) (?:stage=|\[)", line)
                if match:
                    fields["phase"] = match.group(1)
            else:
                match = re.search(r"phase=(.*?) (?:stage=|\[|\w+=)", line)
                if match:
                    fields["phase"] = match.group(1)
            match = re.search(r"stage=(.*?) (?:\[|\w+=)", line)
            if match:
                fields["stage"] = match.group(1)
            found.append(fields)
    return found


def main():
    rows = phases(sys.argv[1])
    if not rows:
        return
    title = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
    print(f"  phases of {title} (wall, CPU user + sys, read/written through system calls | by the device, peak RSS):")
    total = dict.fromkeys(NUMBERS, 0)
    for row in rows:
        values = {k: int(row.get(k, "0") or 0) for k in NUMBERS}
        for k in NUMBERS:
            # The stages nest (a report's `files` holds its `report files` phases): add up the outer ones only.
            if k == "peak_rss_kb":
                total[k] = max(total[k], values[k])
            elif row.get("stage") != "report files":
                total[k] += values[k]
        print_row(f"{row.get('stage', '?')}: {row.get('phase', '?')}", values)
    print_row("all phases", total)


def print_row(name, v):
    mb = lambda b: f"{b / 1e6:,.0f} MB"
    print(f"    {name[:66]:66} {v['millis'] / 1000:7.2f} s  cpu {v['user_millis'] / 1000:6.2f} + "
          f"{v['sys_millis'] / 1000:5.2f} s  io {mb(v['rchar']):>9} / {mb(v['wchar']):>9} | "
          f"{mb(v['read_bytes']):>8} / {mb(v['write_bytes']):>8}  {v['peak_rss_kb'] / 1024:,.0f} MB")


if __name__ == "__main__":
    main()
