import AppleData
import ReconModel

/// The counted sales revenue recognition keeps per transaction (`recognition_sales`), and every kept sale's whole
/// life summed by month (`recognition_months`), CONTRACT §5.1: a night writes the schedule and the roll-forward
/// from them, judging only its own transactions again.
///
/// Like the other results, a report's sales are staged (``startTransactionResults(everything:)``) and become the
/// kept ones once the report is written (``keepTransactionResults(everything:state:samePurchase:recognitionMonths:)``).
extension SQLRevenue {
    private static let saleColumns = """
        transaction_id, original_transaction_id, user_id, product_id, currency, amount_milli, start_at, end_at,
        period_source, refunds
        """

    /// This report's sales in transaction id order: every sale it judged (`judgedEverything`), or the kept ones of
    /// the transactions not judged again with those judged again.
    package func forEachReportedSale(judgedEverything: Bool, _ body: (RecognitionSale) throws -> Void) throws {
        let sql =
            judgedEverything
            ? "SELECT \(Self.saleColumns) FROM recognition_sales_staged ORDER BY transaction_id"
            : """
            SELECT \(Self.saleColumns) FROM recognition_sales
                WHERE transaction_id NOT IN (SELECT transaction_id FROM rerun)
            UNION ALL SELECT \(Self.saleColumns) FROM new_recognition_sales
            ORDER BY transaction_id
            """
        try forEachSale(try db.prepare(sql), body)
    }

    /// The kept sales of the transactions an incremental report does not judge again whose last change is at or
    /// after `since` (the as-of: the sales still in flight).
    package func forEachInFlightSale(since: Int64, _ body: (RecognitionSale) throws -> Void) throws {
        // What the index holds (``Schema/recognitionSalesByLastChange``): no ids, which the as-of's month needs not.
        let kept = try db.prepare(
            """
            SELECT transaction_id, '', '', product_id, currency, amount_milli, start_at, end_at, period_source, refunds
            FROM recognition_sales\(db.dialect.indexedBy("recognition_sales_by_last_change"))
            WHERE last_change >= $1 AND transaction_id NOT IN (SELECT transaction_id FROM rerun)
            """)
        try kept.bind([.integer(since)])
        try forEachSale(kept, body)
    }

    /// The kept sales of the transactions an incremental report judges again (`temp.rerun`): what they counted
    /// before.
    package func forEachReplacedSale(_ body: (RecognitionSale) throws -> Void) throws {
        try forEachSale(
            try db.prepare(
                """
                SELECT \(Self.saleColumns) FROM recognition_sales
                WHERE transaction_id IN (SELECT transaction_id FROM rerun)
                """), body)
    }

    /// Every kept sale's whole life summed by month (``RecognitionMonth``), as the last written report kept it.
    package func recognitionMonths() throws(StoreError) -> [RecognitionMonth: RecognitionMonthSums] {
        let stmt = try db.prepare(
            """
            SELECT month, billed_month, product_id, currency, sales, billings_milli, recognized_milli, released_milli,
                reversed_milli
            FROM recognition_months
            """)
        var months: [RecognitionMonth: RecognitionMonthSums] = [:]
        while try stmt.step() {
            let key = RecognitionMonth(
                month: Int(stmt.int64(0)), billedMonth: Int(stmt.int64(1)), productID: stmt.text(2),
                currency: stmt.text(3))
            months[key] = RecognitionMonthSums(
                sales: stmt.int64(4), billings: stmt.int64(5), recognized: stmt.int64(6), released: stmt.int64(7),
                reversed: stmt.int64(8))
        }
        return months
    }

    /// Replaces the kept sums by month with `months`; inside the caller's write transaction.
    func replaceRecognitionMonths(_ months: [RecognitionMonth: RecognitionMonthSums]) throws(StoreError) {
        try db.execute("DELETE FROM recognition_months", context: "keeping the results")
        let insert = try db.prepare(
            RowInsert(
                into: "recognition_months",
                [
                    "month", "billed_month", "product_id", "currency", "sales", "billings_milli", "recognized_milli",
                    "released_milli", "reversed_milli",
                ]))
        for key in months.keys.sorted() {
            guard let sums = months[key], !sums.isEmpty else { continue }
            try insert.run([
                .integer(Int64(key.month)), .integer(Int64(key.billedMonth)), .text(key.productID),
                .text(key.currency), .integer(sums.sales), .integer(sums.billings), .integer(sums.recognized),
                .integer(sums.released), .integer(sums.reversed),
            ])
        }
    }

    /// The insert of a sale into `table`.
    static func insertSale(into table: String) -> RowInsert {
        RowInsert(
            into: table,
            [
                "transaction_id", "original_transaction_id", "user_id", "product_id", "currency", "amount_milli",
                "start_at", "end_at", "period_source", "refunds", "last_change",
            ])
    }

    /// Binds `sale` to an ``insertSale(into:)`` statement and runs it.
    static func bind(_ sale: RecognitionSale, to statement: any StoreStatement) throws(StoreError) {
        try statement.bindInt64(sale.amount.milliunits, at: 6)
        try statement.bindInt64(sale.start, at: 7)
        if let end = sale.end { try statement.bindInt64(end, at: 8) } else { try statement.bindNull(at: 8) }
        try statement.bindInt64(sale.lastChange, at: 11)
        try statement.runBinding(texts: [
            (sale.transactionID, 1), (sale.originalTransactionID, 2), (sale.userID, 3), (sale.productID, 4),
            (sale.amount.currency, 5), (sale.periodSource.rawValue, 9), (refundsText(sale.refunds), 10),
        ])
    }

    /// Apple's refunds of a sale as kept: `at:kind:reversedAt` (`-` when it stands), `;` between them; kind is
    /// `full`, `upgrade` or `p` and the prorated share in thousandths of a percent.
    static func refundsText(_ refunds: [RecognitionSale.Refund]) -> String {
        // Most sales have none: no array of texts to join.
        guard !refunds.isEmpty else { return "" }
        return refunds.map { refund in
            let kind =
                switch refund.kind {
                case .full: "full"
                case .upgrade: "upgrade"
                case .prorated(let share): "p\(share)"
                }
            return "\(refund.at):\(kind):\(refund.reversedAt.map(String.init) ?? "-")"
        }.joined(separator: ";")
    }

    /// The refunds ``refundsText(_:)`` wrote.
    static func refunds(from text: String) throws(StoreError) -> [RecognitionSale.Refund] {
        guard !text.isEmpty else { return [] }
        var refunds: [RecognitionSale.Refund] = []
        for item in text.split(separator: ";") {
            let fields = item.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 3, let at = Int64(fields[0]) else {
                throw StoreError.unknownValue(table: "recognition_sales", column: "refunds", value: String(item))
            }
            let kind: RecognitionSale.Refund.Kind
            switch fields[1] {
            case "full": kind = .full
            case "upgrade": kind = .upgrade
            case let share where share.hasPrefix("p"):
                guard let value = Int(share.dropFirst()) else {
                    throw StoreError.unknownValue(table: "recognition_sales", column: "refunds", value: String(item))
                }
                kind = .prorated(thousandthsOfPercent: value)
            default: throw StoreError.unknownValue(table: "recognition_sales", column: "refunds", value: String(item))
            }
            refunds.append(RecognitionSale.Refund(at: at, kind: kind, reversedAt: Int64(fields[2])))
        }
        return refunds
    }

    private func forEachSale(_ stmt: any StoreStatement, _ body: (RecognitionSale) throws -> Void) throws {
        while try stmt.step() {
            try body(try Self.sale(stmt))
        }
    }

    /// The sale of the statement's current row, whose columns are ``saleColumns``.
    static func sale(_ stmt: any StoreStatement) throws(StoreError) -> RecognitionSale {
        guard let source = RecognitionSale.PeriodSource(rawValue: stmt.text(8)) else {
            throw StoreError.unknownValue(table: "recognition_sales", column: "period_source", value: stmt.text(8))
        }
        return RecognitionSale(
            transactionID: stmt.text(0), originalTransactionID: stmt.text(1), userID: stmt.text(2),
            productID: stmt.text(3), amount: Money(milliunits: stmt.int64(5), currency: stmt.text(4)),
            start: stmt.int64(6), end: stmt.optionalInt64(7), periodSource: source,
            refunds: try Self.refunds(from: stmt.text(9)))
    }
}
