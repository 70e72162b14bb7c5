import AppleData
import ReconModel

/// The original-transaction groups a page of ids at a time, for a store across a network.
extension SQLLedger {
    /// Ids per page: one query reads the rows of this many groups.
    static let groupPage = 500

    /// As ``forEachOriginalTransactionGroup(ids:_:)``, but one query per page of ids rather than one per id.
    ///
    /// On PostgreSQL each query is a round trip, and a night touches thousands of subscriptions. The groups come in
    /// the order of `ids`, each with its rows by purchase date and record id.
    ///
    /// Memory: one page of groups.
    func forEachOriginalTransactionGroupInPages(
        ids: any StoreStatement, _ body: (OriginalTransactionGroup) throws -> Void
    )
        throws
    {
        var statements: [Int: any StoreStatement] = [:]
        var page: [String] = []
        func emit() throws {
            guard !page.isEmpty else { return }
            let rows: any StoreStatement
            if let prepared = statements[page.count] {
                rows = prepared
            } else {
                let marks = (1...page.count).map { "$\($0)" }.joined(separator: ", ")
                rows = try db.prepare(
                    """
                    SELECT \(TransactionsRow.columns) FROM transactions WHERE original_transaction_id IN (\(marks))
                    ORDER BY original_transaction_id NULLS FIRST, purchase_date NULLS FIRST, record_id NULLS FIRST
                    """)
                statements[page.count] = rows
            }
            try rows.bind(page.map { .text($0) })
            var groups: [String: [LedgerTransaction]] = [:]
            while try rows.step() {
                let record = try TransactionsRow.read(rows)
                groups[record.originalTransactionID, default: []].append(record)
            }
            for id in page {
                guard let records = groups[id], records.count > 1 else { continue }
                try body(OriginalTransactionGroup(originalTransactionID: id, records: records))
            }
            page.removeAll(keepingCapacity: true)
        }
        while try ids.step() {
            page.append(ids.text(0))
            if page.count == Self.groupPage { try emit() }
        }
        try emit()
    }
}
