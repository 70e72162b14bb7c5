import Foundation

/// Server-side HTML: every dynamic value passes through ``escape(_:)`` or ``queryValue(_:)``.
enum HTML {
    /// Escapes text for an element body or a quoted attribute value (OWASP's five characters).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Percent-encodes a query parameter value (everything but unreserved characters).
    static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        allowed = allowed.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `href` of a query string built from `pairs` (values encoded, then escaped for the attribute).
    static func href(_ path: String, _ pairs: [(String, String)]) -> String {
        let query = pairs.map { "\($0.0)=\(queryValue($0.1))" }.joined(separator: "&")
        return escape(query.isEmpty ? path : path + "?" + query)
    }

    /// A whole page: the stylesheet inline, no scripts, nothing fetched from elsewhere.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>\(stylesheet)</style>
        </head>
        <body>
        <header><a class="brand" href="/">iap-recon support</a></header>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    static let stylesheet = """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#f5f5f7}
        header{background:#1d1d1f;padding:.6em 1.2em}header a.brand{color:#fff;text-decoration:none;font-weight:600}
        main{max-width:1100px;margin:1.2em auto;padding:0 1.2em}
        h1{font-size:1.3em}h2{font-size:1.05em;margin:1.4em 0 .4em}
        form.search{display:flex;flex-wrap:wrap;gap:.5em;align-items:end;background:#fff;padding:1em;border-radius:8px}
        form.search label{display:flex;flex-direction:column;font-size:.85em;color:#555}
        input,select,button{font:inherit;padding:.35em .5em;border:1px solid #bbb;border-radius:5px}
        button{background:#0066cc;color:#fff;border-color:#0066cc;cursor:pointer}
        .answer{background:#fff;border-left:6px solid #2e7d32;padding:.8em 1em;border-radius:6px;margin:1em 0}
        .answer.alert{border-left-color:#c62828}.answer-line{font-size:1.25em;font-weight:600;margin:0}
        .counts{display:flex;gap:1.5em;margin:.5em 0 0;color:#444}.counts b{color:#1d1d1f}
        table{border-collapse:collapse;width:100%;background:#fff;border-radius:6px;font-size:.92em}
        th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #e5e5e5;vertical-align:top}
        th{background:#fafafa;font-weight:600}td.time,td.amount{white-space:nowrap;font-variant-numeric:tabular-nums}
        .sev-critical{color:#b71c1c;font-weight:700}.sev-high{color:#e65100;font-weight:600}
        .note{color:#555;font-size:.9em}.error{background:#fff3f3;border:1px solid #e0b4b4;padding:.7em 1em;border-radius:6px}
        ul.links{margin:.2em 0;padding-left:1.2em}
        """
}
