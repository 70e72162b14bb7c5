import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Columns a file names that its kind does not know: a misspelled optional column
/// (`delivered` for `delivered_at`) would otherwise be silently ignored, and every row would
/// read as "not delivered".
package enum UnknownColumns {
    /// The fields of each kind of file (CONTRACT §1.1–1.3).
    package static func fields(of kind: InputKind) -> [Field] {
        switch kind {
        case .transactions:
            return [
                .recordID, .userID, .productID, .transactionID, .originalTransactionID, .purchaseDate, .quantity,
                .environment, .price, .currency, .storefront, .verificationStatus, .deliveredAt, .finishedAt,
                .receiptID,
            ]
        case .receipts: return [.receiptID, .userID, .receivedAt, .format, .data, .claimedEnvironment]
        case .products:
            return [
                .productID, .type, .price, .currency, .storefront, .proceedsRate, .proceeds, .duration, .sampleContent,
            ]
        case .notifications: return []  // read by NotificationImporter, which names its own fields
        case .salesReports: return []  // read by SalesReportImporter, which reads its columns by name
        case .entitlements:
            return [.userID, .originalTransactionID, .productID, .expiresAt, .environment, .updatedAt]
        case .consents: return [.userID, .consentedAt, .withdrawnAt]
        }
    }

    /// One warning line per column of `header` that `kind` does not know, in header order.
    package static func warnings(header: [String], kind: InputKind, file: String) -> [String] {
        let known = fields(of: kind).map(\.name)
        var seen: Set<String> = []
        var lines: [String] = []
        for name in header {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard !key.isEmpty, !known.contains(key), seen.insert(key).inserted else { continue }
            var line = "\(kind.rawValue) \(file): unknown column '\(name.prefix(60))' ignored"
            if let guess = suggestion(for: key, among: known) { line += " (did you mean '\(guess)'?)" }
            lines.append(line)
        }
        return lines
    }

    /// The known name closest to `name`: one it is a prefix of or that is a prefix of it, else
    /// one within two edits.
    package static func suggestion(for name: String, among known: [String]) -> String? {
        if let match = known.first(where: { $0.hasPrefix(name) || name.hasPrefix($0) }) { return match }
        let scored = known.map { ($0, distance(name, $0)) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance (names are short).
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
