import AppleData
import ReconModel

/// Apple's Sales Reports, Financial Reports and payments.
///
/// ``SQLAppleReports`` keeps them in SQLite.
package protocol AppleReportRepository {
    /// Stores a whole report in one transaction, replacing what an earlier import stored for the
    /// same period and region currency.
    ///
    /// The replaced unit is (period, region, currency): Apple's Americas (`US`) and Rest of World
    /// (`WW`) regions are both paid in USD, so a region's file never replaces the other's. An
    /// all-regions file (`ZZ`, or a file whose name does not say) replaces every region of the
    /// currencies it holds, and a region's file replaces the all-regions file's rows of its currency:
    /// the same sale is never stored twice.
    func storeFinancialReport(_ report: FinancialReport, source: String) throws(StoreError)

    /// Whether any Financial Report is in the store.
    func hasFinancialReports() throws(StoreError) -> Bool

    /// Every stored report row, by period, region currency, product, country, then file line.
    func financialReportRows() throws(StoreError) -> [FinancialReportRow]

    /// Stores a whole summary in one transaction, replacing what an earlier import stored for its month.
    func storePaymentSummary(_ summary: PaymentSummary, source: String) throws(StoreError)

    /// Every stored summary, by fiscal month; regions by currency, then name.
    func paymentSummaries() throws(StoreError) -> [PaymentSummary]

    /// Every day an imported sales report covers, ascending.
    func salesReportDays() throws(StoreError) -> [Int]

    /// Every stored sales report row, by day, product, storefront, currency, then file line.
    func salesReportRows() throws(StoreError) -> [SalesReportRow]

    /// A writer of one sales report file, `source` (its earlier rejections are forgotten); the caller holds the
    /// batch (``LedgerImportRepository/beginBatch()``) the file is written in.
    func salesReportWriter(source: String) throws(StoreError) -> any SalesReportWriter
}

extension SQLAppleReports: AppleReportRepository {}
