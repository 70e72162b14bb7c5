import ReconFindings
import ReconModel
import ReconStorage

/// `sales_reconciliation.csv` (CONTRACT §5).
extension CSVReports {
    public static let salesReconciliationHeader = [
        "date", "product_id", "storefront", "currency", "apple_units", "ledger_units", "apple_amount", "ledger_amount",
        "status",
    ]

    /// One row per key of the compared days present on either side, in key order; `status` is
    /// `match` or `mismatch`.
    public static func salesReconciliation(_ sales: SalesReconciliationReport) -> CSVTable {
        CSVTable(
            header: salesReconciliationHeader,
            rows: sales.lines.map { line in
                let key = line.key
                func money(_ milli: Int64) -> CSVCell { .money(milli, key.currency) }
                return [
                    .text(Timestamp.dayString(key.day)), .text(key.productID), .text(key.storefront),
                    .text(key.currency),
                    .number(String(line.appleUnits)), .number(String(line.ledgerUnits)), money(line.appleAmount),
                    money(line.ledgerAmount), .text(line.matches ? "match" : "mismatch"),
                ]
            })
    }
}
