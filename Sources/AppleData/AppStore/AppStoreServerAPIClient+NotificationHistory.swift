import Foundation
import ReconModel

/// One page of Get Notification History (Apple's `NotificationHistoryResponse`).
public struct NotificationHistoryPage: Sendable, Hashable {
    /// Each record's `signedPayload`, as Apple sent it.
    public var signedPayloads: [String]
    /// Whether Apple has more records for the same request.
    public var hasMore: Bool
    /// The token to send for the next page.
    public var paginationToken: String?
    /// HTTP attempts this page took.
    public var attempts: Int
}

extension AppStoreServerAPIClient {
    /// Get Notification History (`POST /inApps/v1/notifications/history`), one page.
    ///
    /// The body is a `NotificationHistoryRequest` with `startDate` and `endDate` in epoch
    /// milliseconds; the next page is asked for with `?paginationToken=` and the same body.
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/get-notification-history
    /// (history is kept 180 days in production, 30 in sandbox; at most 20 records a page).
    ///
    /// - Parameters:
    ///   - startDate: Start of the window, epoch ms (inclusive).
    ///   - endDate: End of the window, epoch ms.
    ///   - paginationToken: The previous page's token; nil for the first page.
    ///   - environment: Production or sandbox (no fallback: each is swept on its own).
    public func notificationHistoryPage(
        startDate: Int64, endDate: Int64, paginationToken: String?, environment: StoreEnvironment
    ) async -> ServerAPIResult<NotificationHistoryPage> {
        let body = Data("{\"endDate\":\(endDate),\"startDate\":\(startDate)}".utf8)
        let query = paginationToken.map { [("paginationToken", $0)] } ?? []
        let (call, attempts) = await perform(
            .notificationHistory, environment: environment, path: "/inApps/v1/notifications/history", query: query,
            method: .post, body: body, signer: signers[0]
        ) { json -> NotificationHistoryPage? in
            guard json.object != nil, let records = json["notificationHistory"] else { return nil }
            return NotificationHistoryPage(
                signedPayloads: records.list.compactMap { $0["signedPayload"]?.string },
                hasMore: json["hasMore"]?.bool ?? false, paginationToken: json["paginationToken"]?.string,
                attempts: 0)
        }
        return call.result(environment: environment, attempts: attempts) { page in
            var page = page
            page.attempts = attempts
            return page
        }
    }
}
