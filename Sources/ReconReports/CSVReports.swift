import ReconFindings
import ReconModel
import ReconStorage

/// The CSV files of CONTRACT §5, built from a ``ReconciliationReport``.
public enum CSVReports {
    public static let discrepanciesHeader = [
        "code", "severity", "transaction_id", "original_transaction_id", "user_ids", "product_id", "environment",
        "amount", "currency", "detected_at", "detail",
    ]
    public static let revenueHeader = [
        "date", "product_id", "currency", "units", "gross", "refunds", "net", "estimated_proceeds", "proceeds",
        "proceeds_currency", "proceeds_source",
    ]
    public static let rejectedHeader = ["source", "line", "record_id", "reason"]

    /// One row of `discrepancies.csv` (one per finding, in report order); `detected_at` is when
    /// the finding was first seen.
    public static func discrepancy(_ history: FindingHistory) -> [CSVCell] {
        let f = history.finding
        return [
            .text(f.code.rawValue), .text(f.severity.rawValue), .text(f.transactionID),
            .text(f.originalTransactionID ?? ""), .text(f.userIDs.joined(separator: ";")),
            .text(f.productID ?? ""), .text(f.environment?.rawValue ?? ""),
            .number(f.amount?.formatted ?? ""), .text(f.amount?.currency ?? ""),
            .text(Timestamp.iso(history.firstSeenAt)), .text(f.detail),
        ]
    }

    /// `revenue_daily.csv`: Production revenue per day, product, currency.
    public static func revenue(_ report: ReconciliationReport) -> CSVTable {
        CSVTable(
            header: revenueHeader,
            rows: report.revenue.map { row in
                func money(_ milli: Int64) -> CSVCell { .money(milli, row.currency) }
                return [
                    .text(row.date), .text(row.productID), .text(row.currency), .number(String(row.units)),
                    money(row.gross), money(row.refunds), money(row.net), money(row.estimatedProceeds),
                    .number(Money(milliunits: row.proceeds, currency: row.proceedsCurrency).formatted),
                    .text(row.proceedsCurrency), .text(row.proceedsSource.rawValue),
                ]
            })
    }

    /// `rejected.csv`: every kept rejection.
    public static func rejected(_ report: ReconciliationReport) -> CSVTable {
        CSVTable(
            header: rejectedHeader,
            rows: report.rejected.map { row in
                [.text(row.source), .number(String(row.line)), .text(row.recordID ?? ""), .text(row.reason)]
            })
    }

    /// `revenue_changes.csv` columns (CONTRACT §5).
    public static let revenueChangesHeader = [
        "date", "product_id", "currency", "previous_net", "current_net", "difference", "transaction_ids", "reason",
    ]

    /// `revenue_changes.csv`: every change to a day the previous report already showed.
    public static func revenueChanges(_ report: ReconciliationReport) -> CSVTable {
        CSVTable(
            header: revenueChangesHeader,
            rows: report.revenueChanges.map { change in
                func money(_ milli: Int64) -> CSVCell { .money(milli, change.currency) }
                return [
                    .text(change.date), .text(change.productID), .text(change.currency), money(change.previousNet),
                    money(change.currentNet), money(change.difference),
                    .text(change.transactionIDs.joined(separator: " ")), .text(change.reason),
                ]
            })
    }
}
