import AppleData
import ReconModel
import ReconStorage

/// A rule that reports one finding code.
///
/// Detectors are stateless values: everything they need arrives with each call, so the store can
/// stream groups through them with memory for one group at a time.
public protocol Detector: Sendable {
    /// The finding code this detector reports (and no other).
    var code: FindingCode { get }
}

/// A detector that looks at everything known about one Apple transaction id.
public protocol TransactionDetector: Detector {
    /// Inspects one transaction's facts (worked out once per group, shared by every detector).
    func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector)
}

/// A detector that looks at the ledger rows sharing one original transaction id.
public protocol OriginalTransactionDetector: Detector {
    /// Reports what is wrong with one original-transaction group (at least two rows).
    ///
    /// - Parameters:
    ///   - group: the ledger rows sharing an original transaction id.
    ///   - context: "now", grace periods, the app's bundle ids and the catalog.
    ///   - findings: where findings go.
    func inspect(
        _ group: OriginalTransactionGroup, in context: DetectionContext, into findings: inout FindingCollector)
}

/// A detector that looks at one uploaded receipt.
public protocol ReceiptDetector: Detector {
    /// Reports what is wrong with one uploaded receipt.
    ///
    /// - Parameters:
    ///   - receipt: the receipt's offline decode, Apple's answer and the rows pointing at it.
    ///   - context: "now", grace periods, the app's bundle ids and the catalog.
    ///   - findings: where findings go.
    func inspect(_ receipt: ReceiptCase, in context: DetectionContext, into findings: inout FindingCollector)
}

/// Collects findings across a whole run, keeping one per fingerprint.
///
/// The same problem reached twice (for example from two passes) is reported once: the first
/// finding with a fingerprint wins.
public struct FindingCollector: Sendable {
    private var findings: [Finding] = []
    private var fingerprints: Set<String> = []

    /// An empty collector.
    public init() {}

    /// Records a finding unless one with the same fingerprint was already recorded.
    ///
    /// - Returns: whether the finding was new.
    @discardableResult
    public mutating func report(_ finding: Finding) -> Bool {
        guard fingerprints.insert(finding.fingerprint).inserted else { return false }
        findings.append(finding)
        return true
    }

    /// How many distinct findings were recorded.
    public var count: Int { findings.count }

    /// The findings in the order they were reported.
    public var reported: [Finding] { findings }

    /// The findings in the stable report order (``Finding/reportOrder(_:_:)``).
    public var sorted: [Finding] { findings.sorted(by: Finding.reportOrder) }
}

/// The detectors a run applies, grouped by what they inspect.
public struct DetectorSet: Sendable {
    /// Detectors fed one ``TransactionGroup`` at a time.
    public var transaction: [any TransactionDetector]
    /// Detectors fed one ``OriginalTransactionGroup`` at a time.
    public var original: [any OriginalTransactionDetector]
    /// Detectors fed one ``ReceiptCase`` at a time.
    public var receipt: [any ReceiptDetector]
    /// The detector fed the sales reconciliation's lines (one per day, product, storefront and
    /// currency) after every transaction was seen.
    public var sales: [SalesReportMismatch]
    /// The detector fed the Financial Report reconciliation's lines (one per fiscal month, product,
    /// country and currency).
    public var financial: [FinancialReportMismatch]
    /// The detector fed the payment summaries beside the Financial Reports (one check per fiscal month
    /// and region currency).
    public var payment: [PaymentMismatch]
    /// Detectors fed each compared entitlement (``SubscriptionLine``).
    public var subscription: [any SubscriptionDetector]
    /// Apple's requests and alarms (CONTRACT §7): each consumption request, each kept notification.
    public var consumption: [ConsumptionUnanswered] = []
    public var externalPurchase: [ExternalPurchaseUnreported] = []
    public var consent: [ConsentRescinded] = []

    /// A set of detectors.
    public init(
        transaction: [any TransactionDetector], original: [any OriginalTransactionDetector],
        receipt: [any ReceiptDetector], sales: [SalesReportMismatch] = [],
        financial: [FinancialReportMismatch] = [], payment: [PaymentMismatch] = [],
        subscription: [any SubscriptionDetector] = [], consumption: [ConsumptionUnanswered] = [],
        externalPurchase: [ExternalPurchaseUnreported] = [], consent: [ConsentRescinded] = []
    ) {
        self.subscription = subscription
        self.consumption = consumption
        self.externalPurchase = externalPurchase
        self.consent = consent
        self.transaction = transaction
        self.original = original
        self.receipt = receipt
        self.sales = sales
        self.financial = financial
        self.payment = payment
    }

    /// Every detector, one per finding code (some inspect two kinds of input).
    public static let all = DetectorSet(
        transaction: [
            DuplicateRecord(), SharedTransaction(), Undelivered(), DeliveredUnverified(), Unfinished(),
            StuckPending(), SandboxInProduction(), ProductionAsSandbox(), BundleMismatch(), ProductMismatch(),
            RefundedDelivered(), MissingRecord(), UnknownProduct(), PriceMismatch(),
        ],
        original: [SharedTransaction(), RestoreAsPurchase()],
        receipt: [EnvironmentClaimMismatch(), InvalidReceipt(), BundleMismatch()],
        sales: [SalesReportMismatch()], financial: [FinancialReportMismatch()], payment: [PaymentMismatch()],
        subscription: [PaidNotEntitled(), EntitledNotPaid(), EntitlementExpiryMismatch()],
        consumption: [ConsumptionUnanswered()], externalPurchase: [ExternalPurchaseUnreported()],
        consent: [ConsentRescinded()]
    )

    /// Every code some detector in the set reports.
    public var codes: Set<FindingCode> {
        Set(
            transaction.map(\.code) + original.map(\.code) + receipt.map(\.code) + sales.map(\.code)
                + financial.map(\.code) + payment.map(\.code) + subscription.map(\.code) + consumption.map(\.code)
                + externalPurchase.map(\.code) + consent.map(\.code))
    }

    /// Runs every transaction detector over one group.
    public func inspect(_ group: TransactionGroup, in context: DetectionContext, into findings: inout FindingCollector)
    {
        inspect(TransactionFacts(group, in: context), into: &findings)
    }

    /// Runs every transaction detector over one group's facts.
    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        for detector in transaction { detector.inspect(facts, into: &findings) }
    }

    /// Runs every original-transaction detector over one group.
    public func inspect(
        _ group: OriginalTransactionGroup, in context: DetectionContext, into findings: inout FindingCollector
    ) {
        for detector in original { detector.inspect(group, in: context, into: &findings) }
    }

    /// Runs every receipt detector over one receipt.
    public func inspect(_ receipt: ReceiptCase, in context: DetectionContext, into findings: inout FindingCollector) {
        for detector in self.receipt { detector.inspect(receipt, in: context, into: &findings) }
    }
}

/// Detection over in-memory sequences, for tests and small ledgers; the nightly run streams
/// groups from the store through a ``DetectorSet`` and a ``FindingCollector`` instead.
public enum Detection {
    /// Runs the detectors over transaction groups, then original-transaction groups, then receipts.
    ///
    /// - Parameters:
    ///   - groups: one group per transaction id.
    ///   - originals: one group per original transaction id with at least two rows.
    ///   - receipts: one case per uploaded receipt.
    ///   - context: "now", grace periods, the app's bundle ids and the catalog.
    ///   - detectors: the detectors to apply; every detector by default.
    /// - Returns: the distinct findings in report order.
    public static func run(
        groups: some Sequence<TransactionGroup>, originals: some Sequence<OriginalTransactionGroup> = [],
        receipts: some Sequence<ReceiptCase> = [], context: DetectionContext, detectors: DetectorSet = .all
    ) -> [Finding] {
        var collector = FindingCollector()
        for group in groups { detectors.inspect(group, in: context, into: &collector) }
        for group in originals { detectors.inspect(group, in: context, into: &collector) }
        for receipt in receipts { detectors.inspect(receipt, in: context, into: &collector) }
        return collector.sorted
    }
}

extension TransactionDetector {
    /// Inspects one group (working out its facts first): for tests and one-off checks.
    public func inspect(_ group: TransactionGroup, in context: DetectionContext, into findings: inout FindingCollector)
    {
        inspect(TransactionFacts(group, in: context), into: &findings)
    }
}
