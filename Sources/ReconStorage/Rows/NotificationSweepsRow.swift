import AppleData
import Foundation
import ReconModel

/// A `notification_sweeps` row: one Get Notification History window.
package enum NotificationSweepsRow {
    package static let table = "notification_sweeps"

    package static let columns =
        "id, environment, start_date, end_date, pagination_token, pages, notifications, completed_at"

    package static func window(_ statement: any StoreStatement) -> NotificationSweepWindow {
        let row = SQLRow(statement, table: table)
        return NotificationSweepWindow(
            id: row.int64("id"), environment: StoreEnvironment(raw: row.text("environment")),
            startDate: row.int64("start_date"), endDate: row.int64("end_date"),
            paginationToken: row.optionalText("pagination_token"), pages: Int(row.int64("pages")),
            notifications: Int(row.int64("notifications")), completedAt: row.optionalInt64("completed_at"))
    }
}
