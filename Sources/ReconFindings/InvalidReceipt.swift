import AppleData
import ReconModel
import ReconStorage

/// `INVALID_RECEIPT`: a receipt Apple rejected or that failed the offline checks.
///
/// Rule, per uploaded receipt: Apple answered 21002, 21003 or 21010; or the offline checks failed
/// (malformed payload; a signature that does not match or a chain that does not reach a trusted
/// root, whatever the ledger's status says) and Apple did not answer 0 for it (when Apple says the
/// receipt is valid, a local failure is ours, not the customer's). An untrusted app receipt of
/// type `Xcode` is a test purchase, not an invalid receipt. Filed under
/// the first ledger row pointing at it, else its first decoded purchase, else the receipt id.
/// The amount is the revenue the ledger booked on the rows pointing at it (empty when none).
public struct InvalidReceipt: ReceiptDetector {
    public let code = FindingCode.invalidReceipt

    /// The detector.
    public init() {}

    public func inspect(_ receipt: ReceiptCase, in context: DetectionContext, into findings: inout FindingCollector) {
        let reason: String
        if let status = receipt.appleStatus, VerifyReceiptStatus.invalidReceipt.contains(status) {
            reason = "Apple answered \(status) (\(InvalidReceipt.meaning(of: status)))"
        } else if let failure = receipt.offlineFailure {
            reason = "\(InvalidReceipt.meaning(of: failure.kind)): \(failure.reason)"
        } else {
            return
        }
        let environment = receipt.records.min(by: LedgerTransaction.bookingOrder)?.environment
        findings.report(
            Finding(code, receipt: receipt, environment: environment, in: context) { rows, booked in
                .invalidReceipt(receipt.receipt, reason: reason, rows: rows, booked: booked)
            })
    }

    private static func meaning(of status: Int) -> String {
        switch status {
        case VerifyReceiptStatus.malformedReceiptData: return "the receipt data is malformed"
        case VerifyReceiptStatus.notAuthenticated: return "the receipt could not be authenticated"
        case VerifyReceiptStatus.accountNotFound: return "the account or receipt is not found or was deleted"
        default: return "invalid"
        }
    }

    private static func meaning(of kind: ReceiptDecodingError.Kind) -> String {
        switch kind {
        case .malformed: return "malformed payload"
        case .badSignature: return "bad signature"
        case .untrustedChain: return "certificate chain not trusted"
        }
    }
}

fileprivate extension Finding.Message {
    static func invalidReceipt(
        _ receipt: ReceiptHeader, reason: String, rows: [LedgerTransaction], booked: MoneyTally
    ) -> Self {
        let uploader = receipt.userID.map { ", uploaded by user \($0)" } ?? ""
        var text = "Receipt \(receipt.receiptID) (\(receipt.format.rawValue)\(uploader)) is invalid: \(reason)"
        if !rows.isEmpty {
            text += "; \(FindingText.records(rows)) rel\(rows.count == 1 ? "ies" : "y") on it"
            if booked.count > 0 { text += " with \(booked.text) booked as revenue" }
        }
        return Self(text)
    }
}
