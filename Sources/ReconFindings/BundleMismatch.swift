import AppleData
import ReconModel
import ReconStorage

/// `BUNDLE_MISMATCH`: evidence for another app's bundle id.
///
/// Only when the app's bundle ids are configured. Each receipt is reported in one place:
/// - per uploaded receipt, from its offline decode (the receipt's bundle id and its entries');
/// - per transaction id, only for evidence not read from an uploaded receipt (Server API answers
///   by transaction id), which no receipt case covers.
/// Foreign evidence is ignored by every other transaction detector. The amount is the revenue the
/// ledger booked on the rows involved (empty when none).
public struct BundleMismatch: ReceiptDetector, TransactionDetector {
    public let code = FindingCode.bundleMismatch

    /// The detector.
    public init() {}

    public func inspect(_ receipt: ReceiptCase, in context: DetectionContext, into findings: inout FindingCollector) {
        guard !context.bundleIDs.isEmpty, let decoded = receipt.decoded else { return }
        let named = [decoded.bundleID] + decoded.entries.map(\.bundleID)
        let foreign = BundleMismatch.distinct(named.compactMap { $0 }.filter { !context.bundleIDs.contains($0) })
        guard !foreign.isEmpty else { return }
        findings.report(
            Finding(code, receipt: receipt, environment: decoded.environment, in: context) { rows, booked in
                .foreignReceipt(receipt.receipt, foreign: foreign, context: context, rows: rows, booked: booked)
            })
    }

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group
        let context = facts.context
        let answers = group.evidence.filter { $0.receiptID == nil && $0.isForeign(in: context) }
        let foreign = BundleMismatch.distinct(answers.compactMap(\.namedBundleID))
        guard let answer = answers.first else { return }
        let rows = facts.booked
        var booked = MoneyTally()
        for row in rows where row.ledgerCountsAsRevenue {
            booked.add(context.value(of: row, applePrice: nil), for: row.recordID)
        }
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: rows.first?.originalTransactionID,
                userIDs: rows.map(\.userID) + answers.compactMap(\.uploaderUserID),
                productID: rows.first?.productID ?? answer.entry.productID, environment: answer.effectiveEnvironment,
                amount: booked.amount,
                message: .foreignAnswer(
                    group.transactionID, answer: answer, foreign: foreign, context: context,
                    rows: rows, booked: booked),
                recordIDs: rows.map(\.recordID)))
    }

    private static func distinct(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}

fileprivate extension Finding.Message {
    static func foreignReceipt(
        _ receipt: ReceiptHeader, foreign: [String], context: DetectionContext, rows: [LedgerTransaction],
        booked: MoneyTally
    ) -> Self {
        let uploader = receipt.userID.map { ", uploaded by user \($0)" } ?? ""
        var text =
            "Receipt \(receipt.receiptID) (\(receipt.format.rawValue)\(uploader)) belongs to "
            + "\(FindingText.list(foreign)), not to this app (\(FindingText.list(context.bundleIDs.sorted())))"
        if !rows.isEmpty {
            text += "; \(FindingText.records(rows)) rel\(rows.count == 1 ? "ies" : "y") on it"
            if booked.count > 0 { text += " with \(booked.text) booked as revenue" }
        }
        return Self(text)
    }

    static func foreignAnswer(
        _ transactionID: String, answer: EvidenceRecord, foreign: [String], context: DetectionContext,
        rows: [LedgerTransaction], booked: MoneyTally
    ) -> Self {
        var text =
            "According to \(FindingText.describe(answer)), transaction \(transactionID) belongs to "
            + "\(FindingText.list(foreign)), not to this app (\(FindingText.list(context.bundleIDs.sorted())))"
        if !rows.isEmpty {
            text += "; \(FindingText.records(rows))"
            if booked.count > 0 { text += " book\(rows.count == 1 ? "s" : "") \(booked.text) as revenue" }
        }
        return Self(text)
    }
}
