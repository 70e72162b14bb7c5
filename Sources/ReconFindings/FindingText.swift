import AppleData
import Foundation
import ReconModel
import ReconStorage

/// The words findings are written in: lists, dates, durations, shares and sources of evidence.
package enum FindingText {
    /// `a, b, c`.
    package static func list(_ items: [String]) -> String { items.joined(separator: ", ") }

    /// `record r1` or `records r1, r2`.
    package static func records(_ rows: [LedgerTransaction]) -> String {
        (rows.count == 1 ? "record " : "records ") + list(rows.map(\.recordID))
    }

    /// UTC ISO 8601 with seconds (`2026-11-20T13:05:00Z`), computed from integers.
    package static func timestamp(_ millis: Int64) -> String {
        let c = Timestamp.components(millis)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }

    /// A share in thousandths of a percent as text (`50 %`, `12.5 %`).
    package static func percentage(_ thousandths: Int) -> String {
        var text = Money.format(milliunits: Int64(thousandths), decimals: 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " %"
    }

    /// A rough length of time (`45 min`, `5 h`, `3 days`), rounded down.
    package static func duration(_ millis: Int64) -> String {
        let minutes = max(0, millis) / 60_000
        if minutes < 120 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours) h" }
        return "\(hours / 24) days"
    }

    /// Where a piece of evidence came from, in words (`Apple's verifyReceipt answer (status 21007)`,
    /// `Apple's App Store Server Notification of 2026-11-19`).
    package static func describe(_ record: EvidenceRecord) -> String {
        let receipt = record.receiptID.map { " for receipt \($0)" } ?? ""
        switch record.source {
        case .verifyReceipt:
            let status = record.appleStatus.map { " (status \($0))" } ?? ""
            return "Apple's verifyReceipt answer\(status)\(receipt)"
        case .serverAPI:
            return "the App Store Server API"
        case .notification:
            // Stored at Apple's signedDate of the notification: say plainly which one it was.
            return "Apple's App Store Server Notification of \(String(timestamp(record.recordedAt).prefix(10)))"
        case .offline:
            let what: String
            switch record.receiptFormat {
            case .signedTransaction: what = "signed transaction"
            case .transactionReceipt: what = "iOS 6 transaction receipt"
            case .appReceipt: what = "app receipt"
            case nil: what = "receipt"
            }
            let trust = record.signature == .verified ? "signature verified" : "signature not verified"
            let name = record.receiptID.map { " \($0)" } ?? ""
            return "the \(what)\(name) (\(trust))"
        }
    }
}

extension Finding {
    /// The one-line `detail` of a finding; each detector builds its own in a `fileprivate`
    /// extension next to its rule.
    package struct Message: Sendable, Hashable, CustomStringConvertible {
        /// The line a person reads.
        package var text: String
        /// The same words around the age they state, if any.
        package var aged: AgedText?

        package init(_ text: String) { self.text = text }

        /// `before`, the age from `since` to `asOf`, then `after`.
        package init(_ before: String, ageFrom since: Int64, to asOf: Int64, _ after: String) {
            text = before + FindingText.duration(asOf - since) + after
            aged = AgedText(before: before, since: since, after: after)
        }

        package var description: String { text }
    }

    /// A finding whose detail is a ``Message``.
    package init(
        _ code: FindingCode, transactionID: String, originalTransactionID: String? = nil,
        userIDs: [String], productID: String? = nil, environment: StoreEnvironment? = nil,
        amount: Money? = nil, message: Message, recordIDs: [String] = [], receiptID: String? = nil,
        subject: String? = nil
    ) {
        self.init(
            code: code, transactionID: transactionID, originalTransactionID: originalTransactionID,
            userIDs: userIDs, productID: productID, environment: environment, amount: amount,
            detail: message.text, recordIDs: recordIDs, receiptID: receiptID, subject: subject)
        aged = message.aged
    }
}
