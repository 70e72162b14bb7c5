import AppStoreTestSigning
import Crypto
import Foundation
import IAPRecon

/// Get Notification History (`POST /inApps/v1/notifications/history`), answered from the seed.
///
/// Every seed transaction of the app's bundle yields the notifications Apple would have sent:
/// `SUBSCRIBED`/`INITIAL_BUY` for a subscription's first purchase, `DID_RENEW` for a renewal,
/// `DID_CHANGE_RENEWAL_PREF`/`UPGRADE` for a purchase that upgraded another (its
/// ``SimulatorTransaction/upgradedFromTransactionId``),
/// `ONE_TIME_CHARGE` for a consumable, non-consumable or non-renewing purchase, `REFUND` (or
/// `REVOKE` for `FAMILY_REVOKE`) at its `revocationDate`, `REFUND_REVERSED` at its
/// `refundReversedDate`, and `CONSUMPTION_REQUEST` (reason `UNINTENDED_PURCHASE`) at its `consumptionRequestDate`. Each is signed by the simulator's authority at its own date, as are the
/// transaction and renewal info inside. Pages of ``SimulatorStore/pageSize`` (Apple: 20) in
/// signed-date order, `paginationToken` / `hasMore` as Apple pages.
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/get-notification-history
enum SimulatedNotificationHistory {
    /// One notification before signing.
    struct Event: Sendable {
        let type: String
        let subtype: String?
        let date: Int64
        let transaction: SimulatorTransaction
        /// Whether the inner transaction shows the revocation.
        let revoked: Bool
        /// Worked out once: the history is sorted by it on every request.
        let uuid: String

        init(type: String, subtype: String?, date: Int64, transaction: SimulatorTransaction, revoked: Bool) {
            self.type = type
            self.subtype = subtype
            self.date = date
            self.transaction = transaction
            self.revoked = revoked
            let digest = Array(SHA256.hash(data: Data("\(transaction.transactionId)|\(type)|\(date)".utf8)))
            let hex = digest.prefix(16).map { String(format: "%02x", $0) }.joined()
            let c = Array(hex)
            uuid =
                String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-"
                + String(c[16..<20]) + "-" + String(c[20..<32])
        }
    }

    /// Every notification the seed implies in `environment`, by date then id.
    static func events(store: SimulatorStore, environment: StoreEnvironment) -> [Event] {
        var events: [Event] = []
        for transaction in store.seed.transactions
        where transaction.storeEnvironment == environment
            && (transaction.bundleId ?? store.seed.bundleId) == store.seed.bundleId
        {
            let purchase: (String, String?)
            if transaction.isAutoRenewable, transaction.upgradedFromTransactionId != nil {
                purchase = ("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
            } else if transaction.isAutoRenewable {
                purchase =
                    transaction.originalID == transaction.transactionId
                    ? ("SUBSCRIBED", "INITIAL_BUY") : ("DID_RENEW", nil)
            } else {
                purchase = ("ONE_TIME_CHARGE", nil)
            }
            events.append(
                Event(
                    type: purchase.0, subtype: purchase.1, date: transaction.purchaseDate, transaction: transaction,
                    revoked: false))
            if let asked = transaction.consumptionRequestDate {
                events.append(
                    Event(
                        type: "CONSUMPTION_REQUEST", subtype: nil, date: asked, transaction: transaction, revoked: false
                    ))
            }
            if let revoked = transaction.revocationDate {
                let type = transaction.revocationType?.uppercased() == "FAMILY_REVOKE" ? "REVOKE" : "REFUND"
                events.append(Event(type: type, subtype: nil, date: revoked, transaction: transaction, revoked: true))
                if let reversed = transaction.refundReversedDate {
                    events.append(
                        Event(
                            type: "REFUND_REVERSED", subtype: nil, date: reversed, transaction: transaction,
                            revoked: false))
                }
            }
        }
        return events.sorted { ($0.date, $0.uuid) < ($1.date, $1.uuid) }
    }

    /// The answer to one request.
    static func answer(
        store: SimulatorStore, authority: SigningAuthority, environment: StoreEnvironment, body: Data,
        paginationToken: String?
    ) -> SimulatorReply {
        guard let request = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return SimulatorReply.apiError(400, code: 4_000_015, message: "Invalid request start date.")
        }
        guard let start = SimulatedServerAPI.integer(request["startDate"]) else {
            return SimulatorReply.apiError(400, code: 4_000_015, message: "Invalid request start date.")
        }
        guard let end = SimulatedServerAPI.integer(request["endDate"]) else {
            return SimulatorReply.apiError(400, code: 4_000_016, message: "Invalid request end date.")
        }
        guard start < end else {
            return SimulatorReply.apiError(400, code: 4_000_018, message: "Start date after end date.")
        }
        let window = events(store: store, environment: environment).filter { $0.date >= start && $0.date <= end }
        var offset = 0
        if let paginationToken, !paginationToken.isEmpty {
            guard let decoded = decodeToken(paginationToken), decoded.key == key(environment, start, end),
                decoded.offset <= window.count
            else {
                return SimulatorReply.apiError(400, code: 4_000_014, message: "Invalid pagination token.")
            }
            offset = decoded.offset
        }
        let endIndex = min(window.count, offset + store.pageSize)
        let slice = offset < endIndex ? Array(window[offset..<endIndex]) : []
        var records: [SimJSON] = []
        for event in slice {
            guard let signed = sign(event, store: store, authority: authority) else {
                return SimulatorReply.apiError(500, code: 5_000_000, message: "An unknown error occurred.")
            }
            records.append(
                .object([
                    "signedPayload": .string(signed),
                    "sendAttempts": .array([
                        .object(["attemptDate": .integer(event.date), "sendAttemptResult": "SUCCESS"])
                    ]),
                ]))
        }
        let hasMore = endIndex < window.count
        var answer: [String: SimJSON] = ["notificationHistory": .array(records), "hasMore": .bool(hasMore)]
        if hasMore {
            answer["paginationToken"] = .string(encodeToken(key: key(environment, start, end), offset: endIndex))
        }
        return SimulatorReply.json(200, answer)
    }

    static func key(_ environment: StoreEnvironment, _ start: Int64, _ end: Int64) -> String {
        "\(environment.rawValue):\(start):\(end)"
    }

    static func encodeToken(key: String, offset: Int) -> String {
        SimulatedServerAPI.base64URLEncode(Data("sim-nh|\(key)|\(offset)".utf8))
    }

    static func decodeToken(_ token: String) -> (key: String, offset: Int)? {
        guard let data = SimulatedServerAPI.base64URLDecode(token), let text = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sim-nh", let offset = Int(parts[2]), offset >= 0 else { return nil }
        return (String(parts[1]), offset)
    }

    /// Apple's `JWSRenewalInfoDecodedPayload`, the fields a renewal needs.
    struct RenewalPayload: Encodable {
        var originalTransactionId: String
        var autoRenewProductId: String
        var productId: String
        var autoRenewStatus: Int
        var signedDate: Int64
        var environment: String
        var renewalDate: Int64?
    }

    static func sign(_ event: Event, store: SimulatorStore, authority: SigningAuthority) -> String? {
        let at = Date(timeIntervalSince1970: Double(event.date) / 1000)
        var transaction = SimulatedServerAPI.payload(event.transaction, store: store, now: at)
        if event.revoked {
            transaction.revocationDate = event.transaction.revocationDate
            transaction.revocationReason = event.transaction.revocationReason ?? 0
            transaction.revocationType = event.transaction.revocationType
            transaction.revocationPercentage = event.transaction.revocationPercentage
        }
        guard let signedTransaction = try? JWSSigner.sign(payload: transaction, authority: authority) else {
            return nil
        }
        var renewal: String?
        var status: Int?
        if event.transaction.isAutoRenewable {
            let info = RenewalPayload(
                originalTransactionId: event.transaction.originalID, autoRenewProductId: event.transaction.productId,
                productId: event.transaction.productId, autoRenewStatus: 1, signedDate: event.date,
                environment: event.transaction.storeEnvironment.rawValue, renewalDate: event.transaction.expiresDate)
            renewal = try? JWSSigner.sign(payload: info, authority: authority)
            if event.type == "SUBSCRIBED" || event.type == "DID_RENEW" { status = 1 }
        }
        var payload = NotificationBody(
            notificationType: event.type, subtype: event.subtype, notificationUUID: event.uuid,
            data: NotificationBody.Payload(
                appAppleId: event.transaction.storeEnvironment == .production ? store.seed.appAppleId : nil,
                bundleId: store.seed.bundleId, environment: event.transaction.storeEnvironment.rawValue,
                signedTransactionInfo: signedTransaction, signedRenewalInfo: renewal, status: status),
            signedDate: event.date)
        if event.type == "CONSUMPTION_REQUEST" { payload.data.consumptionRequestReason = "UNINTENDED_PURCHASE" }
        return try? payload.signed(by: authority)
    }
}
