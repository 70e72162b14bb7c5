import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// `subscriptions.csv` (CONTRACT §5) and the workbook's `Subscriptions` sheet.
extension CSVReports {
    public static let subscriptionsHeader = [
        "user_id", "original_transaction_id", "product_id", "backend_expires_at", "apple_status", "apple_expires_at",
        "apple_grace_expires_at", "auto_renew", "evidence", "finding",
    ]

    /// One row per compared entitlement, by original transaction id, then user.
    public static func subscriptions(_ report: SubscriptionsReport) -> CSVTable {
        CSVTable(
            header: subscriptionsHeader,
            rows: report.lines.map { line in
                let e = line.entitlement
                let apple = line.apple
                func time(_ millis: Int64?) -> CSVCell { .text(millis.map(Timestamp.iso) ?? "") }
                return [
                    .text(e.userID), .text(e.originalTransactionID), .text(e.productID), time(e.expiresAt),
                    .text(apple?.status.name ?? ""), time(apple?.expiresDate), time(apple?.gracePeriodExpiresDate),
                    .text(apple?.autoRenew.map { $0 ? "true" : "false" } ?? ""),
                    .text(apple?.evidence ?? "no evidence of Apple's: not judged"), .text(line.finding?.rawValue ?? ""),
                ]
            })
    }
}

extension XLSXReportWriter {
    /// Every compared entitlement with both sides' expiry, Apple's status and what decided.
    package static func subscriptions(_ report: SubscriptionsReport, zone: TimeZone) -> XLSXSheet {
        var rows = [XLSXRow(CSVReports.subscriptionsHeader.map { .text($0) }, style: .header)]
        for line in report.lines {
            let e = line.entitlement
            let apple = line.apple
            func time(_ millis: Int64?) -> XLSXCell { millis.map { .dateTime(dateTime($0, zone: zone)) } ?? .empty }
            rows.append(
                XLSXRow([
                    .text(e.userID), .text(e.originalTransactionID), .text(e.productID), time(e.expiresAt),
                    .text(apple?.status.name ?? ""), time(apple?.expiresDate), time(apple?.gracePeriodExpiresDate),
                    .text(apple?.autoRenew.map { $0 ? "true" : "false" } ?? ""),
                    .text(apple?.evidence ?? "no evidence of Apple's: not judged"), .text(line.finding?.rawValue ?? ""),
                ]))
        }
        return XLSXSheet(name: "Subscriptions", rows: rows, headerRow: 0)
    }
}
