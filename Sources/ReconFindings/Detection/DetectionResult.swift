import Foundation
import ReconModel
import ReconStorage

/// What the detect stage produced: the findings as recorded (kept in the store, counted here), and revenue and the
/// sales reconciliation accumulated from the same pass over the store.
///
/// It also holds the incremental report's state (how the transactions were judged, the revenue counters): the
/// engine keeps it in the store with ``DetectionEngine/commit(_:asOf:)`` once the reports are written, never before.
public struct DetectionResult {
    public var findings: RecordedFindings
    public var revenue: RevenueBuilder
    /// Revenue recognized as the service is delivered: the roll-forward and the waterfall (CONTRACT §5.1); the
    /// schedule is read from the store (``RevenueRepository/forEachReportedSale(judgedEverything:_:)``).
    public var deferred: DeferredRevenueRollForward
    /// Every counted sale's whole life summed by month, kept for the next report.
    package var recognitionMonths: [RecognitionMonth: RecognitionMonthSums]
    /// The months the previous report closed whose roll-forward this report shows differently.
    public var deferredRestatements: [DeferredRevenueRestatement]
    /// Apple's Summary Sales Reports beside the ledger; nil when no report covers a day that ended by `asOf`.
    public var sales: SalesReconciliationReport?
    /// Apple's Financial Reports beside the ledger and the payments; nil when no report covers a fiscal month that
    /// ended by `asOf`.
    public var monthClose: MonthCloseReport?
    /// The entitlements beside Apple's state of their subscriptions; nil when none is in the store.
    public var subscriptions: SubscriptionsReport?
    /// Apple's requests and alarms: consumption requests, commitments, notifications by type.
    public var appleWord: AppleWordReport
    /// How the transactions were judged, and what the store keeps of them once the report is written.
    package var plan: TransactionPlan
    /// The counts beside the revenue lines, with how many transactions make up each currency's.
    package var revenueCounters: RevenueCounters
    /// How many transaction groups were judged (every one, or only those that could have changed).
    public var judgedTransactions: Int
    /// Whether every transaction was judged (not only those that could have changed).
    public var judgedEverything: Bool { plan.everything }
}

/// This run's findings as recorded: kept in the store (``FindingRepository/forEachRunFinding(at:_:)``), counted here.
public struct RecordedFindings: Sendable {
    public var totals: FindingTotals
    /// The run that recorded them in the history (its resolved findings are shown); nil when the history was only
    /// read (an `--as-of` earlier than the latest recorded).
    public var runID: Int64?

    public init(totals: FindingTotals, runID: Int64?) {
        self.totals = totals
        self.runID = runID
    }
}

/// What detection reads of the settings: the thresholds, the time zones, the revenue days, how incremental.
///
/// The composition root makes it from its validated settings.
public struct DetectionSettings: Sendable {
    /// Decides the calendar day of purchases and refunds.
    public var timeZone: TimeZone
    /// Decides the calendar day of Apple's Summary Sales Reports.
    public var salesReportTimeZone: TimeZone
    /// Inclusive bounds of the revenue report, in days since 1970-01-01; nil = open.
    public var revenueFrom: Int?
    public var revenueTo: Int?
    public var deliveryGraceMillis: Int64
    public var finishGraceMillis: Int64
    public var pendingLimitMillis: Int64
    /// The app's own bundle ids.
    public var bundleIDs: [String]
    /// When the ledger begins (epoch ms); nil: the ledger holds everything.
    public var ledgerStart: Int64?
    /// `--entitlement-lookback` and `--entitlement-tolerance`, in milliseconds (CONTRACT §3, §4).
    public var entitlementLookbackMillis: Int64
    public var entitlementToleranceMillis: Int64
    /// The amount revenue recognition defers (`--recognition-basis`).
    public var recognitionBasis: RecognitionBasis = .proceeds
    /// Judge every transaction, whatever the last report kept (`--full`).
    public var fullReport: Bool
    /// Judge every transaction once more than this share of the ledger (percent) would be judged again.
    public var incrementalLimitPercent: Int

    public init(
        timeZone: TimeZone, salesReportTimeZone: TimeZone, revenueFrom: Int?, revenueTo: Int?,
        deliveryGraceMillis: Int64, finishGraceMillis: Int64, pendingLimitMillis: Int64, bundleIDs: [String],
        ledgerStart: Int64?, entitlementLookbackMillis: Int64, entitlementToleranceMillis: Int64, fullReport: Bool,
        incrementalLimitPercent: Int
    ) {
        self.timeZone = timeZone
        self.salesReportTimeZone = salesReportTimeZone
        self.revenueFrom = revenueFrom
        self.revenueTo = revenueTo
        self.deliveryGraceMillis = deliveryGraceMillis
        self.finishGraceMillis = finishGraceMillis
        self.pendingLimitMillis = pendingLimitMillis
        self.bundleIDs = bundleIDs
        self.ledgerStart = ledgerStart
        self.entitlementLookbackMillis = entitlementLookbackMillis
        self.entitlementToleranceMillis = entitlementToleranceMillis
        self.fullReport = fullReport
        self.incrementalLimitPercent = incrementalLimitPercent
    }

    /// The detection thresholds at `asOf` with `catalog`.
    public func context(asOf: Int64, catalog: [String: [CatalogProduct]]) -> DetectionContext {
        var context = DetectionContext(
            asOf: asOf, deliveryGraceMillis: deliveryGraceMillis, finishGraceMillis: finishGraceMillis,
            pendingLimitMillis: pendingLimitMillis, bundleIDs: Set(bundleIDs), catalog: catalog)
        context.ledgerStart = ledgerStart
        return context
    }
}
