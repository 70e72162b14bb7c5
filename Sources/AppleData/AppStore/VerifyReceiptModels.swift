import Foundation
import ReconModel

/// Apple's final `verifyReceipt` answer, with the receipt's contents as evidence.
public struct VerifyReceiptAnswer: Sendable, Hashable {
    /// The final `status`.
    public var status: Int
    /// What the status means.
    public var verdict: VerifyReceiptVerdict
    /// The endpoint that gave the final answer: `.production` or `.sandbox`.
    public var answeredBy: StoreEnvironment
    /// The URL that gave the final answer.
    public var endpoint: URL
    /// The answer's own `environment` field, when present.
    public var environment: StoreEnvironment?
    /// `receipt.bundle_id`, or `receipt.bid` for an iOS 6 receipt.
    public var bundleID: String?
    /// `receipt.receipt_type`, raw (`Production`, `ProductionSandbox`).
    public var receiptType: String?
    /// `receipt.receipt_creation_date_ms`.
    public var receiptCreationDate: Int64?
    /// `receipt.application_version` (or iOS 6 `bvrs`).
    public var applicationVersion: String?
    /// `receipt.original_application_version`.
    public var originalApplicationVersion: String?
    /// Every `receipt.in_app` entry (for an iOS 6 receipt: the receipt itself).
    public var inApp: [EvidenceEntry]
    /// Every `latest_receipt_info` entry.
    public var latestReceiptInfo: [EvidenceEntry]
    /// `is-retryable`, when Apple sent it.
    public var isRetryable: Bool?
    /// Every status seen, in order, the transient ones and the environment redirects included.
    public var statuses: [Int]
    /// HTTP attempts made, across both environments.
    public var attempts: Int

    /// Creates an answer value.
    public init(
        status: Int, verdict: VerifyReceiptVerdict, answeredBy: StoreEnvironment, endpoint: URL,
        environment: StoreEnvironment? = nil, bundleID: String? = nil, receiptType: String? = nil,
        receiptCreationDate: Int64? = nil, applicationVersion: String? = nil,
        originalApplicationVersion: String? = nil, inApp: [EvidenceEntry] = [],
        latestReceiptInfo: [EvidenceEntry] = [], isRetryable: Bool? = nil, statuses: [Int], attempts: Int
    ) {
        self.status = status
        self.verdict = verdict
        self.answeredBy = answeredBy
        self.endpoint = endpoint
        self.environment = environment
        self.bundleID = bundleID
        self.receiptType = receiptType
        self.receiptCreationDate = receiptCreationDate
        self.applicationVersion = applicationVersion
        self.originalApplicationVersion = originalApplicationVersion
        self.inApp = inApp
        self.latestReceiptInfo = latestReceiptInfo
        self.isRetryable = isRetryable
        self.statuses = statuses
        self.attempts = attempts
    }

    /// The environment the receipt belongs to: the `environment` field, else the endpoint that
    /// accepted it (only meaningful when ``verdict`` is `.valid`).
    public var receiptEnvironment: StoreEnvironment { environment ?? answeredBy }

    /// `inApp` followed by `latestReceiptInfo`: every purchase the answer mentions.
    public var allEntries: [EvidenceEntry] { inApp + latestReceiptInfo }
}

/// The result of verifying one receipt with `verifyReceipt`: a value, never a thrown error.
public enum VerifyReceiptResult: Sendable, Hashable {
    /// Apple answered with a final status (valid, invalid, environment, configuration).
    case answered(VerifyReceiptAnswer)
    /// The retry budget ran out without a final answer; the transaction stays pending.
    case unreachable(reason: String, statuses: [Int], attempts: Int)
    /// An HTTP error that retrying does not fix (404, 403, ... from a misconfigured URL or a
    /// proxy); the transaction stays pending and the setup needs a look.
    case httpFailure(status: Int, endpoint: URL, statuses: [Int], attempts: Int)

    /// HTTP attempts made.
    public var attempts: Int {
        switch self {
        case .answered(let answer): return answer.attempts
        case .unreachable(_, _, let attempts), .httpFailure(_, _, _, let attempts): return attempts
        }
    }

    /// The answer, when Apple gave a final one.
    public var answer: VerifyReceiptAnswer? {
        if case .answered(let answer) = self { return answer }
        return nil
    }
}

/// Reads a `verifyReceipt` JSON body.
package enum VerifyReceiptParser {
    /// The parts of one body the client needs; nil when the body is not a JSON object with a
    /// numeric `status`.
    package struct Body {
        package var status: Int
        package var isRetryable: Bool?
        package var json: AppleJSONValue
    }

    package static func parse(_ data: Data) -> Body? {
        guard let json = AppleJSONValue.parse(data), json.object != nil,
            let status = json["status"]?.int64, let small = Int(exactly: status)
        else { return nil }
        return Body(status: small, isRetryable: json["is-retryable"]?.bool, json: json)
    }

    package static func answer(
        from body: Body, answeredBy: StoreEnvironment, endpoint: URL, statuses: [Int], attempts: Int
    ) -> VerifyReceiptAnswer {
        let json = body.json
        let receipt = json["receipt"]
        var inApp: [EvidenceEntry] = []
        if let list = receipt?["in_app"] {
            inApp = list.list.compactMap { entry(from: $0, bundleID: nil) }
        } else if let receipt, receipt["transaction_id"] != nil {
            // iOS 6 transaction receipt: the receipt object is the purchase.
            inApp = [entry(from: receipt, bundleID: receipt["bid"]?.string)].compactMap { $0 }
        }
        var latest: [EvidenceEntry] = []
        if let list = json["latest_receipt_info"] {
            latest = list.list.compactMap { entry(from: $0, bundleID: $0["bid"]?.string) }
        }
        // The answer speaks for the receipt Apple was given, as of its creation date; an upgrade is marked as
        // Apple marks it (`is_upgraded`), else as the receipt shows it (EvidenceEntry.markingUpgrades).
        let created = receipt?["receipt_creation_date_ms"]?.int64
        let all = EvidenceEntry.markingUpgrades(inApp + latest).map {
            var entry = $0
            entry.receiptCreationDate = created
            return entry
        }
        inApp = Array(all.prefix(inApp.count))
        latest = Array(all.dropFirst(inApp.count))
        return VerifyReceiptAnswer(
            status: body.status,
            verdict: VerifyReceiptStatus.verdict(for: body.status),
            answeredBy: answeredBy,
            endpoint: endpoint,
            environment: json["environment"]?.string.map(StoreEnvironment.init(raw:)),
            bundleID: receipt?["bundle_id"]?.string ?? receipt?["bid"]?.string,
            receiptType: receipt?["receipt_type"]?.string,
            receiptCreationDate: created,
            applicationVersion: receipt?["application_version"]?.string ?? receipt?["bvrs"]?.string,
            originalApplicationVersion: receipt?["original_application_version"]?.string,
            inApp: inApp,
            latestReceiptInfo: latest,
            isRetryable: body.isRetryable,
            statuses: statuses,
            attempts: attempts
        )
    }

    /// Maps one `in_app` / `latest_receipt_info` / iOS 6 receipt object, with the fields Apple documents for
    /// them (https://developer.apple.com/documentation/appstorereceipts/responsebody/latest_receipt_info): a
    /// `cancellation_date` with `is_upgraded` `"true"` is the upgrade of a subscription, not a refund.
    package static func entry(from value: AppleJSONValue, bundleID: String?) -> EvidenceEntry? {
        guard value.object != nil, let transactionID = value["transaction_id"]?.string, !transactionID.isEmpty
        else { return nil }
        return EvidenceEntry(
            transactionID: transactionID,
            originalTransactionID: value["original_transaction_id"]?.string,
            productID: value["product_id"]?.string,
            quantity: value["quantity"]?.int64.flatMap { Int(exactly: $0) },
            purchaseDate: millis(value, "purchase_date"),
            originalPurchaseDate: millis(value, "original_purchase_date"),
            expiresDate: millis(value, "expires_date"),
            cancellationDate: millis(value, "cancellation_date"),
            cancellationReason: value["cancellation_reason"]?.string,
            webOrderLineItemID: value["web_order_line_item_id"]?.string,
            bundleID: bundleID,
            inAppOwnershipType: value["in_app_ownership_type"]?.string,
            // "true" only: Apple sends "false" too, and an absent flag says nothing.
            isUpgraded: value["is_upgraded"]?.bool == true ? true : nil,
            isTrialPeriod: value["is_trial_period"]?.bool,
            isInIntroOfferPeriod: value["is_in_intro_offer_period"]?.bool
        )
    }

    /// `<name>_ms`, or `<name>` itself when it is all digits (iOS 6 `expires_date`).
    private static func millis(_ value: AppleJSONValue, _ name: String) -> Int64? {
        if let ms = value[name + "_ms"]?.int64 { return ms }
        if let raw = value[name]?.string, !raw.isEmpty, raw.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return Int64(raw)
        }
        return nil
    }
}
