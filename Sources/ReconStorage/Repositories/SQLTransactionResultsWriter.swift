import AppleData
import ReconModel

/// Writes each judged transaction's results (``RevenueRepository/startTransactionResults(everything:)``) while detection
/// runs, in one write transaction (a commit every few thousand rows made the write-ahead log checkpoint over and over
/// while detection was reading).
package final class SQLTransactionResultsWriter {
    private let db: any StoreDatabase
    /// Whether every transaction is judged (the tables replace the kept ones) or only `temp.rerun`'s.
    package let everything: Bool
    private let insertResult: any StoreStatement
    private let insertFinding: any StoreStatement
    private let insertPart: any StoreStatement
    private let insertOriginalResult: any StoreStatement
    private let insertOriginalFinding: any StoreStatement
    private let insertLine: any StoreStatement
    private let insertEvent: any StoreStatement
    private let insertSale: any StoreStatement
    /// The statements that move spooled parts into their table in key order, run once before the commit
    /// (``SQLRevenue/startTransactionResults(everything:)``); nil when the parts are written in place.
    private var sortSpooledParts: [String]?
    private var inTransaction = false

    package init(
        db: any StoreDatabase, everything: Bool, insertResult: any StoreStatement, insertFinding: any StoreStatement,
        insertPart: any StoreStatement, insertOriginalResult: any StoreStatement,
        insertOriginalFinding: any StoreStatement,
        insertLine: any StoreStatement, insertEvent: any StoreStatement, insertSale: any StoreStatement,
        sortSpooledParts: [String]? = nil
    ) {
        self.db = db
        self.everything = everything
        self.insertResult = insertResult
        self.insertFinding = insertFinding
        self.insertPart = insertPart
        self.insertOriginalResult = insertOriginalResult
        self.insertOriginalFinding = insertOriginalFinding
        self.insertLine = insertLine
        self.insertEvent = insertEvent
        self.insertSale = insertSale
        self.sortSpooledParts = sortSpooledParts
    }

    deinit {
        if inTransaction { try? db.execute("ROLLBACK") }
    }

    private func begin() throws(StoreError) {
        guard !inTransaction, !db.isInTransaction else { return }
        try db.execute(db.dialect.beginWrite, context: "keeping the results")
        inTransaction = true
    }

    /// One transaction's results, each row with its original transaction id (``TransactionGroup/originalTransactionID``);
    /// a transaction with no counts and no moment of change keeps no result row.
    ///
    /// `events` are kept when the store holds Apple's reports (``LedgerEvent``); `sale` when revenue recognition
    /// counts the transaction.
    package func add(
        _ transactionID: String, originalTransactionID: String, findings: [Finding], parts: [RevenuePart],
        counters: TransactionCounters, nextChange: Int64?, events: [LedgerEvent] = [], sale: RecognitionSale? = nil
    ) throws(StoreError) {
        try begin()
        if nextChange != nil || counters != TransactionCounters() {
            try insertResult.bindText(transactionID, at: 1)
            try insertResult.bindText(originalTransactionID, at: 9)
            try bind(nextChange, at: 2, of: insertResult)
            try bind(counters.excludedAsSandbox, at: 3, of: insertResult)
            try bind(counters.recoveredFromSandbox, at: 5, of: insertResult)
            try insertResult.bindInt64(counters.unpriced ? 1 : 0, at: 7)
            try insertResult.bindInt64(Int64(counters.duplicateRowsIgnored), at: 8)
            try insertResult.runBound()
        }
        try insert(findings, of: transactionID, original: originalTransactionID, with: insertFinding)
        for (seq, part) in parts.enumerated() {
            try insertPart.bindInt64(Int64(seq), at: 2)
            try insertPart.bindInt64(Int64(part.day), at: 3)
            try insertPart.bindInt64(part.units, at: 6)
            try insertPart.bindInt64(part.gross, at: 7)
            try insertPart.bindInt64(part.refunds, at: 8)
            try insertPart.bindInt64(part.rate, at: 9)
            try insertPart.bindInt64(part.net, at: 10)
            try bindAmountThenCurrency(part.stated, at: 11, of: insertPart)
            if let source = part.statedSource {
                try insertPart.bindText(source.rawValue, at: 13)
            } else {
                try insertPart.bindNull(at: 13)
            }
            try insertPart.runBinding(texts: [
                (transactionID, 1), (part.productID, 4), (part.currency, 5), (originalTransactionID, 14),
            ])
        }
        for (seq, event) in events.enumerated() {
            try insertEvent.bindText(transactionID, at: 1)
            try insertEvent.bindText(originalTransactionID, at: 14)
            try insertEvent.bindInt64(Int64(seq), at: 2)
            try insertEvent.bindInt64(Int64(event.day), at: 3)
            try insertEvent.bindText(event.recordID, at: 4)
            try insertEvent.bindText(event.userID, at: 5)
            try insertEvent.bindText(event.productID, at: 6)
            try insertEvent.bindText(event.storefront, at: 7)
            try insertEvent.bindText(event.currency, at: 8)
            try insertEvent.bindInt64(event.units, at: 9)
            try insertEvent.bindInt64(event.amount, at: 10)
            try bindAmountThenCurrency(event.proceeds, at: 11, of: insertEvent)
            try insertEvent.bindInt64(event.rate, at: 13)
            try insertEvent.runBound()
        }
        if let sale { try SQLRevenue.bind(sale, to: insertSale) }
    }

    /// One original-transaction group's findings; a group with no moment of change keeps no result row.
    package func addOriginal(_ originalTransactionID: String, findings: [Finding], nextChange: Int64?)
        throws(StoreError)
    {
        try begin()
        try flushRows()
        if let nextChange {
            try insertOriginalResult.run([.text(originalTransactionID), .integer(nextChange)])
        }
        try insert(findings, of: originalTransactionID, original: originalTransactionID, with: insertOriginalFinding)
    }

    /// The revenue lines this report added up: every line (``everything``), or the changed ones.
    package func addLines(_ rows: some Sequence<RevenueRow>) throws(StoreError) {
        try begin()
        try flushRows()
        for row in rows {
            try insertLine.run([
                .integer(Int64(row.day)), .text(row.productID), .text(row.currency), .integer(row.units),
                .integer(row.gross), .integer(row.refunds), .integer(row.estimatedProceeds), .integer(row.proceeds),
                .text(row.proceedsCurrency), .text(row.proceedsSource.rawValue),
            ])
        }
    }

    /// Commits what is written so far, the spooled parts first moved into their table in key order.
    package func commit() throws(StoreError) {
        guard inTransaction else { return }
        try flushRows()
        if let sortSpooledParts {
            try db.execute(sortSpooledParts, context: "keeping the results")
            self.sortSpooledParts = nil
        }
        try db.execute("COMMIT", context: "keeping the results")
        inTransaction = false
    }

    /// Writes the parts, events and sales still waiting in their statements (``StoreStatement/flush()``): the
    /// transactions' rows are all in their tables before anything else is written or read.
    private func flushRows() throws(StoreError) {
        try insertPart.flush()
        try insertEvent.flush()
        try insertSale.flush()
    }

    /// A group's findings, in the order found; `original` is the group's original transaction id.
    ///
    /// A finding that states an age keeps its words around it instead of its detail, so it reads the same kept
    /// whatever the as-of.
    private func insert(
        _ findings: [Finding], of group: String, original: String, with statement: any StoreStatement
    ) throws(StoreError) {
        for (seq, finding) in findings.enumerated() {
            try statement.bindText(group, at: 1)
            try statement.bindText(original, at: 20)
            try statement.bindInt64(Int64(seq), at: 2)
            var kept = finding
            if finding.aged != nil { kept.detail = "" }
            try SQLRunFindingSpool.bind(kept, fingerprint: finding.fingerprint, to: statement, from: 3)
            try SQLRunFindingSpool.bind(finding.aged, to: statement, from: 17)
            try statement.runBound()
        }
    }

    private func bind(_ value: Int64?, at index: Int32, of statement: any StoreStatement) throws(StoreError) {
        if let value { try statement.bindInt64(value, at: index) } else { try statement.bindNull(at: index) }
    }

    /// Binds the amount at `index` and the currency after it (a part's stated proceeds, an event's proceeds).
    private func bindAmountThenCurrency(_ money: Money?, at index: Int32, of statement: any StoreStatement)
        throws(StoreError)
    {
        try bind(money?.milliunits, at: index, of: statement)
        if let money {
            try statement.bindText(money.currency, at: index + 1)
        } else {
            try statement.bindNull(at: index + 1)
        }
    }

    /// Binds the currency at `index` and the amount after it.
    private func bind(_ money: Money?, at index: Int32, of statement: any StoreStatement) throws(StoreError) {
        if let money {
            try statement.bindText(money.currency, at: index)
            try statement.bindInt64(money.milliunits, at: index + 1)
        } else {
            try statement.bindNull(at: index)
            try statement.bindNull(at: index + 1)
        }
    }
}
