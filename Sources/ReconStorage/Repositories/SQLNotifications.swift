import AppleData
import ReconModel

/// App Store Server Notifications V2: kept once by `notificationUUID`; the signed transaction
/// inside each becomes evidence, dated by the notification's `signedDate`.
extension SQLNotifications {

    /// Keeps a verified notification and the evidence it carries, in one transaction.
    ///
    /// - Parameters:
    ///   - now: when it is kept.
    ///   - learnedAt: when it counts as learned (``RunContext/learnedAt(_:)``: never after the run's as-of).
    /// - Returns: true when it is new; false when this `notificationUUID` was already kept
    ///   (Apple retries webhooks and the history sweep overlaps them).
    @discardableResult
    public func recordNotification(
        _ n: VerifiedNotification, origin: NotificationOrigin, at now: Int64, learnedAt: Int64
    ) throws -> Bool {
        try write {
            let known =
                try db.scalar(
                    "SELECT COUNT(*) FROM notifications WHERE notification_uuid = $1", [.text(n.uuid)]) ?? 0
            if known > 0 { return false }
            let evidence = n.transaction?.evidence
            let entries = evidence?.entries ?? []
            let label = n.subtype.map { "\(n.type)/\($0)" } ?? n.type
            let verificationID = try db.insert(
                """
                INSERT INTO verifications (record_id, receipt_id, transaction_id, source, environment, bundle_id,
                    outcome, detail, attempts, verified_at, learned_at)
                VALUES (NULL, NULL, $1, 'notification', $2, $3, 'valid', $4, 1, $5, $6)
                """,
                [
                    .optionalText(n.transaction?.transactionId), .optionalText(n.environment?.rawValue),
                    .optionalText(n.bundleID), .text("App Store Server Notification \(label), signed and verified"),
                    .integer(now), .integer(learnedAt),
                ], returning: "id")
            if !entries.isEmpty {
                let writer = try EvidenceWriter(store: store)
                for entry in entries {
                    // Dated by Apple's signedDate: what Apple said, and when it said it.
                    try writer.insert(
                        entry, source: .notification, receiptID: nil, verificationID: verificationID,
                        environment: n.environment, bundleID: n.bundleID, signature: .verified, appleStatus: nil,
                        at: n.signedDate)
                }
            }
            var file: String?
            var line: Int64?
            var receivedAt: Int64?
            if case .file(let path, let number, let received) = origin {
                (file, line, receivedAt) = (path, Int64(number), received)
            }
            try db.prepare(
                RowInsert(
                    into: "notifications",
                    [
                        "notification_uuid", "notification_type", "subtype", "signed_date", "environment", "bundle_id",
                        "transaction_id", "original_transaction_id", "product_id", "revocation_date", "revocation_type",
                        "verification_id", "source", "source_file", "source_line", "received_at", "signed_payload",
                        "recorded_at",
                    ])
            ).run([
                .text(n.uuid), .text(n.type), .optionalText(n.subtype), .integer(n.signedDate),
                .optionalText(n.environment?.rawValue), .optionalText(n.bundleID),
                .optionalText(n.transaction?.transactionId),
                .optionalText(n.transaction?.originalTransactionId ?? n.renewal?.originalTransactionId),
                .optionalText(n.transaction?.productId ?? n.renewal?.productId),
                .optionalInteger(n.transaction?.revocationDate), .optionalText(n.transaction?.revocationType),
                .integer(verificationID), .text(origin.name), .optionalText(file), .optionalInteger(line),
                .optionalInteger(receivedAt), .text(n.signedPayload), .integer(now),
            ])
            try SQLAppleWord(store: store).recordNotificationWords(n, learnedAt: learnedAt)
            return true
        }
    }

    /// Keeps a refused notification line as a rejected row.
    public func rejectNotification(_ row: RejectedRow) throws {
        try db.prepare(RowInsert.rejectedRow).run([
            .text(row.kind.rawValue), .text(row.source), .integer(Int64(row.line)), .optionalText(row.recordID),
            .text(row.reason), .text(row.raw), .integer(clock.nowMillis()),
        ])
    }

    /// Forgets a notification file's earlier rejections before it is imported again (a line
    /// fixed at the source leaves `rejected.csv`).
    package func clearNotificationRejections(file: String) throws(StoreError) {
        try db.prepare("DELETE FROM rejected_rows WHERE kind = 'notifications' AND source_file = $1").run([.text(file)])
    }

    /// How many notifications are kept.
    public func notificationCount() throws(StoreError) -> Int {
        Int(try db.scalar("SELECT COUNT(*) FROM notifications") ?? 0)
    }

    /// Notifications about any of the given transactions or original transactions, by signed date.
    public func notifications(transactionIDs: [String], originalTransactionIDs: [String]) throws
        -> [StoredNotification]
    {
        var found: [String: StoredNotification] = [:]
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "transaction_id IN (\($0))" }, transactionIDs),
            ({ "original_transaction_id IN (\($0))" }, originalTransactionIDs),
        ]
        try db.forEachChunk(matching: asked) { condition, values in
            let stmt = try db.prepare("SELECT \(NotificationsRow.columns) FROM notifications WHERE \(condition)")
            try stmt.bind(values)
            while try stmt.step() {
                let row = NotificationsRow.stored(stmt)
                found[row.uuid] = row
            }
        }
        return found.values.sorted { ($0.signedDate, $0.uuid) < ($1.signedDate, $1.uuid) }
    }
}

/// Get Notification History sweeps: one window per environment at a time, its pagination token
/// saved after every page, completed only when the last page is in.
extension SQLNotifications {

    /// The window a killed or failed sweep left open in `environment`, to resume.
    public func openNotificationSweep(environment: StoreEnvironment) throws(StoreError) -> NotificationSweepWindow? {
        let stmt = try db.prepare(
            """
            SELECT \(NotificationSweepsRow.columns) FROM notification_sweeps
            WHERE environment = $1 AND completed_at IS NULL ORDER BY id DESC LIMIT 1
            """)
        try stmt.bind([.text(environment.rawValue)])
        return try stmt.step() ? NotificationSweepsRow.window(stmt) : nil
    }

    /// The latest completed window in `environment`.
    public func lastCompletedNotificationSweep(environment: StoreEnvironment) throws(StoreError)
        -> NotificationSweepWindow?
    {
        let stmt = try db.prepare(
            """
            SELECT \(NotificationSweepsRow.columns) FROM notification_sweeps
            WHERE environment = $1 AND completed_at IS NOT NULL ORDER BY end_date DESC, id DESC LIMIT 1
            """)
        try stmt.bind([.text(environment.rawValue)])
        return try stmt.step() ? NotificationSweepsRow.window(stmt) : nil
    }

    /// Every sweep window, oldest first (run records, tests).
    public func notificationSweeps() throws(StoreError) -> [NotificationSweepWindow] {
        let stmt = try db.prepare("SELECT \(NotificationSweepsRow.columns) FROM notification_sweeps ORDER BY id")
        var result: [NotificationSweepWindow] = []
        while try stmt.step() { result.append(NotificationSweepsRow.window(stmt)) }
        return result
    }

    /// Opens a new window.
    public func startNotificationSweep(
        environment: StoreEnvironment, startDate: Int64, endDate: Int64
    ) throws(StoreError) -> NotificationSweepWindow {
        let id = try db.insert(
            "INSERT INTO notification_sweeps (environment, start_date, end_date, started_at) VALUES ($1, $2, $3, $4)",
            [.text(environment.rawValue), .integer(startDate), .integer(endDate), .integer(clock.nowMillis())],
            returning: "id")
        return NotificationSweepWindow(
            id: id, environment: environment, startDate: startDate, endDate: endDate,
            paginationToken: nil, pages: 0, notifications: 0, completedAt: nil)
    }

    /// Records that a page is in (its notifications already kept): the next page's token.
    public func advanceNotificationSweep(_ id: Int64, paginationToken: String?, newNotifications: Int)
        throws(StoreError)
    {
        try db.prepare(
            """
            UPDATE notification_sweeps SET pagination_token = $1, pages = pages + 1, notifications = notifications + $2
            WHERE id = $3
            """
        ).run([.optionalText(paginationToken), .integer(Int64(newNotifications)), .integer(id)])
    }

    /// Moves an open window's start to `startDate` (Apple no longer keeps what came before), from its first page
    /// again: Apple's pagination token belongs to the dates it was asked with.
    public func restartNotificationSweep(_ id: Int64, startDate: Int64) throws(StoreError) {
        try db.prepare("UPDATE notification_sweeps SET start_date = $1, pagination_token = NULL WHERE id = $2")
            .run([.integer(startDate), .integer(id)])
    }

    /// Marks a window complete: every page is in.
    public func completeNotificationSweep(_ id: Int64) throws(StoreError) {
        try db.prepare("UPDATE notification_sweeps SET completed_at = $1 WHERE id = $2")
            .run([.integer(clock.nowMillis()), .integer(id)])
    }
}

/// Where a notification came from.
public enum NotificationOrigin: Sendable, Hashable {
    /// A line of an imported webhook file.
    case file(path: String, line: Int, receivedAt: Int64?)
    /// A page of Apple's Get Notification History.
    case history

    package var name: String {
        switch self {
        case .file: return "import"
        case .history: return "history"
        }
    }
}

/// A kept notification as the lookup timeline shows it.
public struct StoredNotification: Sendable, Hashable {
    public var uuid: String
    public var type: String
    public var subtype: String?
    public var signedDate: Int64
    public var environment: String?
    public var transactionID: String?
    public var originalTransactionID: String?
    public var productID: String?
    public var revocationDate: Int64?
    public var revocationType: String?
    /// `import` or `history`.
    public var source: String
}

/// A sweep window, open or completed.
public struct NotificationSweepWindow: Sendable, Hashable {
    public var id: Int64
    public var environment: StoreEnvironment
    /// Epoch ms.
    public var startDate: Int64
    public var endDate: Int64
    /// The token for the next page; nil before the first page.
    public var paginationToken: String?
    public var pages: Int
    public var notifications: Int
    public var completedAt: Int64?
}
