import AppleData
import ReconModel

/// What the last report showed, per transaction and revenue line: the baseline of `revenue_changes.csv`.
///
/// The kept revenue parts (``RevenuePart``) are that baseline: read in transaction id order, the order detection reads
/// the store in, so a report compares it with what it counts now in one pass (memory for one transaction). A store
/// whose last report was written by an earlier version keeps its baseline in `revenue_shown_by_transaction` until
/// its first report here replaces it.
extension SQLRevenue {
    /// The lines (day, product, currency) the latest report showed, with each one's net; empty before the first
    /// report.
    package func revenueShownLines() throws(StoreError) -> [RevenueLine: Int64] {
        var lines: [RevenueLine: Int64] = [:]
        if try hasLegacyRevenueBaseline() {
            let stmt = try db.prepare("SELECT date, product_id, currency FROM revenue_shown_lines")
            while try stmt.step() {
                lines[RevenueLine(date: stmt.text(0), productID: stmt.text(1), currency: stmt.text(2))] = 0
            }
            return lines
        }
        let stmt = try db.prepare("SELECT day, product_id, currency, gross_milli, refunds_milli FROM revenue_lines")
        while try stmt.step() {
            let line = RevenueLine(
                date: Timestamp.dayString(Int(stmt.int64(0))), productID: stmt.text(1), currency: stmt.text(2))
            lines[line] = Money.difference(stmt.int64(3), stmt.int64(4))
        }
        return lines
    }

    /// Whether the baseline is still the one an earlier version wrote (no revenue parts kept yet).
    package func hasLegacyRevenueBaseline() throws(StoreError) -> Bool {
        guard try db.tableExists("revenue_shown_by_transaction") else { return false }
        return try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM revenue_parts)") == 1
    }

    /// The contributions the latest report showed, in transaction id order (then day, product, currency), read one
    /// transaction at a time; only those of `temp.rerun` when `rerunOnly`.
    package func revenueShownCursor(rerunOnly: Bool) throws(StoreError) -> any RevenueBaselineCursor {
        if !rerunOnly, try hasLegacyRevenueBaseline() {
            return try LegacyRevenueShownCursor(
                try db.prepare(
                    """
                    SELECT \(RevenueShownRow.columns) FROM revenue_shown_by_transaction
                    ORDER BY transaction_id NULLS FIRST, date, product_id NULLS FIRST, currency NULLS FIRST
                    """))
        }
        let filter = rerunOnly ? "WHERE transaction_id IN (SELECT transaction_id FROM rerun)" : ""
        return try RevenuePartsCursor(
            try db.prepare(
                """
                SELECT transaction_id, day, product_id, currency, gross_milli, refunds_milli FROM revenue_parts
                \(filter) ORDER BY transaction_id, seq
                """))
    }

    /// Whether the transaction's refund or revocation reached the store through the
    /// notification-history sweep.
    package func refundLearnedBySweep() throws(StoreError) -> (String) throws(StoreError) -> Bool {
        let stmt = try db.prepare(
            """
            SELECT 1 FROM notifications
            WHERE transaction_id = $1 AND source = 'history' AND notification_type IN ('REFUND', 'REVOKE') LIMIT 1
            """)
        return { (transactionID: String) throws(StoreError) -> Bool in
            try stmt.bind([.text(transactionID)])
            defer { try? stmt.bind([]) }
            return try stmt.step()
        }
    }
}

/// The previous baseline, one contribution at a time in transaction id order.
package protocol RevenueBaselineCursor: AnyObject {
    /// The contribution under the cursor; nil once every one was read.
    var current: RevenueContribution? { get }
    /// Moves to the next contribution.
    func advance() throws(StoreError)
}

/// The baseline from the kept revenue parts: a transaction's parts added up per line.
package final class RevenuePartsCursor: RevenueBaselineCursor {
    private let statement: any StoreStatement
    private var pending: [RevenueContribution] = []
    private var hasRow: Bool
    package private(set) var current: RevenueContribution?

    package init(_ statement: any StoreStatement) throws(StoreError) {
        self.statement = statement
        hasRow = try statement.step()
        try advance()
    }

    package func advance() throws(StoreError) {
        if pending.isEmpty { try readTransaction() }
        current = pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Reads the next transaction's parts into its contributions, by day, product, currency.
    private func readTransaction() throws(StoreError) {
        guard hasRow else { return }
        let id = statement.text(0)
        var byLine: [RevenueContribution.Key: RevenueContribution] = [:]
        while hasRow, statement.textMatches(0, id) {
            let key = RevenueContribution.Key(
                date: Timestamp.dayString(Int(statement.int64(1))), productID: statement.text(2),
                currency: statement.text(3), transactionID: id)
            var item = byLine[key] ?? RevenueContribution(key: key, gross: 0, refunds: 0, refundSource: nil)
            item.gross += statement.int64(4)
            item.refunds += statement.int64(5)
            byLine[key] = item
            hasRow = try statement.step()
        }
        pending = byLine.values.sorted { $0.key < $1.key }
    }
}

/// The baseline an earlier version kept, one row per contribution.
package final class LegacyRevenueShownCursor: RevenueBaselineCursor {
    private let statement: any StoreStatement
    package private(set) var current: RevenueContribution?

    package init(_ statement: any StoreStatement) throws(StoreError) {
        self.statement = statement
        try advance()
    }

    package func advance() throws(StoreError) {
        current = try statement.step() ? RevenueShownRow.contribution(statement) : nil
    }
}
