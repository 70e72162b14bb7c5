import AppleData
import ReconModel

/// Writes one Apple Summary Sales Report file into the store (CONTRACT §1.8): the first row of a day replaces whatever
/// an earlier import stored for that day, so re-importing a report (or a corrected one) replaces it.
///
/// ``AppleReportRepository/salesReportWriter(source:)`` makes one per file; ``SQLSalesReportWriter`` keeps the
/// rows in SQLite.
package protocol SalesReportWriter: AnyObject {
    /// Marks `day` as covered by this file, dropping rows an earlier import stored for it.
    func cover(_ day: Int) throws(StoreError)

    /// Keeps one in-app purchase row (its day covered first).
    func insert(_ row: SalesReportRow) throws(StoreError)

    /// Keeps a row that could not be read, with its line and reason.
    func reject(_ row: RejectedRow) throws(StoreError)
}

extension SQLSalesReportWriter: SalesReportWriter {}
