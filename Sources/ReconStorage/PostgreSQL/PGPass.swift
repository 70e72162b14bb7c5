import Foundation

/// libpq's password file (`~/.pgpass`, or the file `PGPASSFILE` names): the password of a server the URL and
/// `PGPASSWORD` leave without one.
///
/// Each line is `hostname:port:database:username:password`; `*` matches anything in the first four fields, `\:` and
/// `\\` are a literal colon and backslash, `#` starts a comment. As libpq does, the file is ignored when others than
/// its owner may read it (it must be mode 0600), and the first matching line wins
/// (https://www.postgresql.org/docs/current/libpq-pgpass.html).
enum PGPass {
    /// The password for this server, database and user, if the file has one.
    static func password(
        host: String, port: Int, database: String, user: String, environment: [String: String]
    ) -> String? {
        guard let path = file(environment), let text = readableByOwnerOnly(path) else { return nil }
        let wanted = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(String(line))
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// `PGPASSFILE`, else `~/.pgpass`.
    static func file(_ environment: [String: String]) -> String? {
        if let path = environment["PGPASSFILE"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.pgpass"
    }

    /// The file's text, when it exists and neither its group nor others may read or write it.
    static func readableByOwnerOnly(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? Int, mode & 0o077 == 0
        else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The fields of one line: split at unescaped colons, `\:` and `\\` unescaped.
    static func split(_ line: String) -> [String] {
        var fields = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}
