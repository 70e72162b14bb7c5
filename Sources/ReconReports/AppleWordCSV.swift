import Foundation
import ReconFindings
import ReconModel

/// `commitments.csv` and `consumption_requests.csv` (CONTRACT §5, §7).
extension CSVReports {
    public static let commitmentsHeader = [
        "original_transaction_id", "user_id", "product_id", "currency", "commitment_price", "periods_total",
        "periods_billed", "billed", "refunded", "unbilled", "commitment_expires", "status", "renews_after",
    ]

    public static let consumptionRequestsHeader = [
        "notification_uuid", "transaction_id", "original_transaction_id", "user_id", "product_id", "reason",
        "requested_at", "deadline", "consented", "delivery_status", "consumption_percentage",
        "sample_content_provided", "refund_preference", "answered_at", "outcome",
    ]

    /// One row per commitment, by original transaction id; users separated by `;` (as in `discrepancies.csv`).
    public static func commitments(_ lines: [CommitmentLine]) -> CSVTable {
        CSVTable(
            header: commitmentsHeader,
            rows: lines.map { line in
                [
                    .text(line.originalTransactionID), .text(line.userIDs.joined(separator: ";")),
                    .text(line.productID ?? ""), .text(line.currency), .money(line.commitmentPrice, line.currency),
                    .number(String(line.periodsTotal)), .number(String(line.periodsBilled)),
                    .money(line.billed, line.currency), .money(line.refunded, line.currency),
                    .money(line.unbilled, line.currency), .text(line.commitmentExpires.map(Timestamp.iso) ?? ""),
                    .text(line.status.rawValue), .text(line.renewsAfter.map { $0 ? "on" : "off" } ?? ""),
                ]
            })
    }

    /// One row per consumption request, by request time then notification uuid.
    public static func consumptionRequests(_ lines: [ConsumptionRequestLine]) -> CSVTable {
        CSVTable(
            header: consumptionRequestsHeader,
            rows: lines.map { line in
                [
                    .text(line.notificationUUID), .text(line.transactionID), .text(line.originalTransactionID ?? ""),
                    .text(line.userIDs.joined(separator: ";")), .text(line.productID ?? ""), .text(line.reason ?? ""),
                    .text(Timestamp.iso(line.requestedAt)), .text(Timestamp.iso(line.deadline)),
                    .text(line.consented.rawValue), .text(line.deliveryStatus),
                    .number(line.consumptionPercentage.map(String.init) ?? ""),
                    .text(line.sampleContentProvided ? "true" : "false"), .text(line.refundPreference ?? ""),
                    .text(line.answeredAt.map(Timestamp.iso) ?? ""), .text(line.outcome ?? ""),
                ]
            })
    }
}
