import Foundation

extension DemoRun {
    /// The commands to try next, each after its colon exactly as a shell takes it (the program as it was started, the
    /// store quoted when it must be): a line pasted from the colon on works.
    static func hints(program: String, store: String) -> [String] {
        let lookup = "\(shellWord(program)) lookup --db \(shellWord(store)) --user"
        return [
            "try: \(lookup) user-paid-nothing-1",
            "try (a refund only the sweep revealed): \(lookup) user-refunded-later",
            "try (a subscription upgrade; Apple states no amount for its prorated refund): \(lookup) user-upgrade",
            "try (Apple keeps access in the billing grace period; the backend cut it off): \(lookup) user-sub-grace-cut",
            "try (a parent withdrew consent; --app-transaction shows every app account of that Apple Account): "
                + "\(lookup) user-shared-account-1",
            "serve: \(shellWord(program)) serve --db \(shellWord(store))",
            "then open: http://127.0.0.1:8080/lookup?user=user-paid-nothing-1",
        ]
    }

    /// `text` as one shell word: as is when every character is plain, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || "_-./:@%+,=".unicodeScalars.contains(scalar)
        }
        if plain, !text.isEmpty { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// How to name the program started as `argument0`: by its path when it was started by one (`./.build/debug/…`),
    /// else `iap-recon` (found on `PATH`).
    public static func programName(_ argument0: String?) -> String {
        guard let argument0, argument0.contains("/") else { return "iap-recon" }
        return argument0
    }
}
