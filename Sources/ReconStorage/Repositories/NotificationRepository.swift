import AppleData
import ReconModel

/// App Store Server Notifications and the history sweeps that fetched them.
///
/// ``SQLNotifications`` keeps them in SQLite.
package protocol NotificationRepository {
    @discardableResult
    func recordNotification(_ n: VerifiedNotification, origin: NotificationOrigin, at now: Int64, learnedAt: Int64)
        throws -> Bool

    /// Keeps a refused notification line as a rejected row.
    func rejectNotification(_ row: RejectedRow) throws

    /// Forgets a notification file's earlier rejections before it is imported again (a line
    /// fixed at the source leaves `rejected.csv`).
    func clearNotificationRejections(file: String) throws(StoreError)

    /// How many notifications are kept.
    func notificationCount() throws(StoreError) -> Int

    /// Notifications about any of the given transactions or original transactions, by signed date.
    func notifications(transactionIDs: [String], originalTransactionIDs: [String]) throws -> [StoredNotification]

    /// The window a killed or failed sweep left open in `environment`, to resume.
    func openNotificationSweep(environment: StoreEnvironment) throws(StoreError) -> NotificationSweepWindow?

    /// The latest completed window in `environment`.
    func lastCompletedNotificationSweep(environment: StoreEnvironment) throws(StoreError) -> NotificationSweepWindow?

    /// Every sweep window, oldest first (run records, tests).
    func notificationSweeps() throws(StoreError) -> [NotificationSweepWindow]

    /// Opens a new window.
    func startNotificationSweep(environment: StoreEnvironment, startDate: Int64, endDate: Int64) throws(StoreError)
        -> NotificationSweepWindow

    /// Records that a page is in (its notifications already kept): the next page's token.
    func advanceNotificationSweep(_ id: Int64, paginationToken: String?, newNotifications: Int) throws(StoreError)

    /// Moves an open window's start to `startDate` (Apple no longer keeps what came before), from its first page
    /// again: Apple's pagination token belongs to the dates it was asked with.
    func restartNotificationSweep(_ id: Int64, startDate: Int64) throws(StoreError)

    /// Marks a window complete: every page is in.
    func completeNotificationSweep(_ id: Int64) throws(StoreError)
}

extension SQLNotifications: NotificationRepository {}
