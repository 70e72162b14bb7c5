import AppleData
import ReconModel

/// Revenue as the last report showed it, and the results an incremental report builds on.
///
/// ``SQLRevenue`` keeps them in SQLite.
package protocol RevenueRepository {
    /// The kept state, if any.
    func detectionState() throws -> DetectionState?

    /// Forgets the kept state: the next report builds everything (a bulk load changes too much to track).
    func forgetDetectionState() throws(StoreError)

    /// The transactions changed since the last report, or whose next moment of change (``TransactionGroup/
    /// nextChange(in:)``) came by `asOf`, plus `more`, into `temp.rerun`; returns how many.
    func prepareRerun(asOf: Int64, more: some Sequence<String>) throws(StoreError) -> Int

    /// The original-transaction groups of `temp.rerun_originals` with two or more ledger rows, as
    /// ``forEachOriginalTransactionGroup(_:)`` reads every one: in original transaction id order.
    func forEachRerunOriginalTransactionGroup(_ body: (OriginalTransactionGroup) throws -> Void) throws

    /// About how many rows the ledger holds (its largest rowid, read in constant time): what a re-run is weighed
    /// against.
    func ledgerSizeEstimate() throws(StoreError) -> Int

    /// The transaction groups listed in `temp.rerun` (``prepareRerun(asOf:more:)``), as
    /// ``forEachTransactionGroup(_:)`` reads every group: in transaction id order.
    func forEachRerunTransactionGroup(_ body: (TransactionGroup) throws -> Void) throws

    /// The same-purchase index (``SamePurchaseIndex``) as the last report kept it, by transaction id.
    func samePurchaseShown() throws(StoreError) -> [String: String]

    /// The lines (day, product, currency) the latest report showed, with each one's net; empty before the first
    /// report.
    func revenueShownLines() throws(StoreError) -> [RevenueLine: Int64]

    /// Whether the baseline is still the one an earlier version wrote (no revenue parts kept yet).
    func hasLegacyRevenueBaseline() throws(StoreError) -> Bool

    /// The contributions the latest report showed, in transaction id order (then day, product, currency), read one
    /// transaction at a time; only those of `temp.rerun` when `rerunOnly`.
    func revenueShownCursor(rerunOnly: Bool) throws(StoreError) -> any RevenueBaselineCursor

    /// Whether the transaction's refund or revocation reached the store through the
    /// notification-history sweep.
    func refundLearnedBySweep() throws(StoreError) -> (String) throws(StoreError) -> Bool

    /// Where this report's results go: `everything` replaces the kept tables; otherwise only the transactions of
    /// `temp.rerun` are replaced.
    func startTransactionResults(everything: Bool) throws(StoreError) -> any TransactionResultsWriter

    /// Makes this report's results the kept ones, with the state they were worked out in.
    ///
    /// The transactions judged are no longer "changed since the last report". Call once the report is written.
    /// `recognitionMonths` replaces the kept sums of every sale's life by month; `schedule` records the
    /// `revenue_schedule.csv` the report wrote from these results (nil: none that a later report may patch).
    func keepTransactionResults(
        everything: Bool, state: DetectionState, samePurchase: [String: String],
        recognitionMonths: [RecognitionMonth: RecognitionMonthSums], schedule: RevenueScheduleRecord?) throws

    /// Adds the kept findings of every transaction not judged again, and this report's of those judged again, to
    /// this run's findings (``startRunFindings()``), in transaction id order as a whole detection finds them.
    func spoolKeptFindings(asOf: Int64) throws(StoreError)

    /// The same for the original-transaction groups, after the transactions' (``spoolKeptFindings(asOf:)``).
    func spoolKeptOriginalFindings(asOf: Int64) throws(StoreError)

    /// What the transactions of `temp.rerun` added to the counts beside the revenue lines when last judged.
    func keptCounters() throws(StoreError) -> [TransactionCounters]

    /// Marks as changed every line where a transaction of `temp.rerun` now adds other parts than it did
    /// (``temp.dirty_lines``), and returns them; the transactions whose parts changed go to `temp.changed_parts`.
    ///
    /// A transaction judged again only because its moment came (a finding's age) mostly adds what it added before:
    /// its lines need no adding up again, and its kept parts no rewriting.
    func markDirtyLines() throws(StoreError) -> [(day: Int, productID: String, currency: String)]

    /// A reader of one line's parts at a time, added up by what the line's sums tell apart (rate, stated currency,
    /// source); its statements are prepared once for all the lines a report adds up again.
    ///
    /// The parts are the kept ones of transactions not judged again, and this report's; added up in SQL, a line of
    /// many sales is one read, and ``RevenueBuilder/row(day:productID:currency:parts:)`` adds parts in any order
    /// (a part here stands for all of its rate, stated currency and source). Where a sum overflows in SQL,
    /// the line's parts come one by one and the builder caps the sum, as a report judging everything does.
    func linePartsReader() throws(StoreError) -> (Int, String, String) throws(StoreError) -> [RevenuePart]

    /// The revenue lines as the last report showed them, but for the changed ones (``markDirtyLines()``), which come
    /// as this report added them up.
    func revenueLinesKeptAndNew() throws(StoreError) -> [RevenueRow]

    /// This report's counted sales (CONTRACT §5.1) in transaction id order: every sale it judged
    /// (`judgedEverything`), or the kept ones of the transactions not judged again with those judged again.
    func forEachReportedSale(judgedEverything: Bool, _ body: (RecognitionSale) throws -> Void) throws

    /// The kept sales of the transactions an incremental report does not judge again whose last change is at or
    /// after `since` (the as-of: the sales still in flight).
    func forEachInFlightSale(since: Int64, _ body: (RecognitionSale) throws -> Void) throws

    /// The `revenue_schedule.csv` the report whose results are kept wrote; nil when none is recorded.
    func revenueScheduleRecord() throws(StoreError) -> RevenueScheduleRecord?

    /// The schedule's lines an incremental report can have changed since the kept results' report at `since`, in
    /// transaction id order: each transaction judged again with its sale now (nil: no longer counted), and each kept
    /// sale whose last change is at or after `since`.
    func forEachScheduleChange(since: Int64, _ body: (String, RecognitionSale?) throws -> Void) throws

    /// The kept sales of the transactions an incremental report judges again: what they counted before.
    func forEachReplacedSale(_ body: (RecognitionSale) throws -> Void) throws

    /// Every kept sale's whole life summed by month, as the last written report kept it.
    func recognitionMonths() throws(StoreError) -> [RecognitionMonth: RecognitionMonthSums]

    /// The deferred revenue lines the latest report showed and the month of its as-of; nil before the first report.
    func deferredRevenueShown() throws(StoreError) -> (rows: [DeferredRevenueRow], lastMonth: Int)?

    /// Makes `rows` the deferred revenue lines the latest report showed, as of a time in `lastMonth`.
    func keepDeferredRevenueShown(_ rows: [DeferredRevenueRow], lastMonth: Int) throws
}

extension SQLRevenue: RevenueRepository {}
