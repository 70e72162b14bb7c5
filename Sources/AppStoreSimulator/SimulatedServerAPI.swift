import AppStoreTestSigning
import Crypto
import Foundation
import IAPRecon

/// The App Store Server API routes, answered from the seed with JWS signed by the simulator's
/// ``SigningAuthority``.
///
/// A transaction is visible only under the base of its own environment; elsewhere the answer is
/// 404 with error 4040010, as Apple does.
enum SimulatedServerAPI {
    static let notFound = SimulatorReply.apiError(404, code: 4_040_010, message: "Transaction id not found.")

    /// Why the bearer token is rejected; nil when it is acceptable.
    static func tokenProblem(authorization: String?, store: SimulatorStore, now: Date) -> String? {
        guard let apiKey = store.seed.apiKey, let publicKey = store.apiPublicKey else { return "no API key configured" }
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let token = authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = base64URLDecode(parts[0]), let claimsData = base64URLDecode(parts[1]),
            let signatureData = base64URLDecode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return "malformed token" }
        guard header["alg"] as? String == "ES256" else { return "alg is not ES256" }
        guard header["kid"] as? String == apiKey.keyId else { return "unknown kid" }
        if let typ = header["typ"] as? String, typ != "JWT" { return "typ is not JWT" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "bad signature" }
        guard claims["iss"] as? String == apiKey.issuerId else { return "wrong iss" }
        let audience = claims["aud"]
        guard
            audience as? String == "appstoreconnect-v1"
                || (audience as? [String])?.contains("appstoreconnect-v1") == true
        else { return "wrong aud" }
        guard let bid = claims["bid"] as? String, store.bundleIDs.contains(bid) else { return "wrong bid" }
        guard let iat = integer(claims["iat"]), let exp = integer(claims["exp"]) else { return "iat or exp missing" }
        let nowSeconds = Int64(now.timeIntervalSince1970)
        guard exp > nowSeconds else { return "expired" }
        guard exp - iat <= 3600, exp > iat else { return "exp more than 60 minutes after iat" }
        guard iat <= nowSeconds + 60 else { return "iat in the future" }
        return nil
    }

    /// The `bid` claim of a bearer token already accepted by ``tokenProblem(authorization:store:now:)``.
    static func tokenBundleID(authorization: String?) -> String? {
        guard let token = authorization?.dropFirst("Bearer ".count).split(separator: ".").dropFirst().first,
            let data = base64URLDecode(String(token)),
            let claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        return claims["bid"] as? String
    }

    /// An integer JSON value, however Foundation bridged it.
    static func integer(_ value: Any?) -> Int64? {
        switch value {
        case let number as Int: return Int64(number)
        case let number as Int64: return number
        case let number as Double: return number.isFinite ? Int64(number) : nil
        case let number as NSNumber: return number.int64Value
        default: return nil
        }
    }

    static func transactionInfo(
        store: SimulatorStore, authority: SigningAuthority, environment: StoreEnvironment, id: String, now: Date,
        bundleID: String? = nil
    ) -> SimulatorReply {
        guard let transaction = store.transactions[id], transaction.storeEnvironment == environment,
            store.belongs(transaction, to: bundleID)
        else {
            return notFound
        }
        guard let signed = sign(transaction, store: store, authority: authority, now: now) else {
            return SimulatorReply.apiError(500, code: 5_000_000, message: "An unknown error occurred.")
        }
        return SimulatorReply.json(200, ["signedTransactionInfo": .string(signed)])
    }

    static func history(
        store: SimulatorStore, authority: SigningAuthority, environment: StoreEnvironment, id: String,
        revision: String?, now: Date, bundleID: String? = nil
    ) -> SimulatorReply {
        guard let transaction = store.transactions[id], transaction.storeEnvironment == environment,
            store.belongs(transaction, to: bundleID)
        else {
            return notFound
        }
        let family = (store.families[transaction.originalID] ?? []).filter { $0.storeEnvironment == environment }
        return page(
            family, family: "h:" + transaction.originalID, revision: revision, store: store, authority: authority,
            environment: environment, now: now, historyFields: true)
    }

    static func refundHistory(
        store: SimulatorStore, authority: SigningAuthority, environment: StoreEnvironment, id: String,
        revision: String?, now: Date, bundleID: String? = nil
    ) -> SimulatorReply {
        guard let transaction = store.transactions[id], transaction.storeEnvironment == environment,
            store.belongs(transaction, to: bundleID)
        else {
            return notFound
        }
        let refunded = (store.families[transaction.originalID] ?? [])
            .filter { $0.storeEnvironment == environment && $0.revocationDate != nil }
            .sorted { ($0.revocationDate ?? 0, $0.transactionId) < ($1.revocationDate ?? 0, $1.transactionId) }
        return page(
            refunded, family: "r:" + transaction.originalID, revision: revision, store: store, authority: authority,
            environment: environment, now: now, historyFields: false)
    }

    static func orderLookup(
        store: SimulatorStore, authority: SigningAuthority, environment: StoreEnvironment, orderID: String, now: Date,
        bundleID: String? = nil
    ) -> SimulatorReply {
        let matches = (store.orders[orderID] ?? []).filter {
            $0.storeEnvironment == environment && store.belongs($0, to: bundleID)
        }
        guard !matches.isEmpty else { return SimulatorReply.json(200, ["status": 1]) }
        let signed = matches.compactMap { sign($0, store: store, authority: authority, now: now) }
        return SimulatorReply.json(200, ["status": 0, "signedTransactions": .array(signed.map(SimJSON.string))])
    }

    /// One page of `list`, with Apple's `revision` / `hasMore` paging.
    private static func page(
        _ list: [SimulatorTransaction], family: String, revision: String?, store: SimulatorStore,
        authority: SigningAuthority, environment: StoreEnvironment, now: Date, historyFields: Bool
    ) -> SimulatorReply {
        var offset = 0
        if let revision, !revision.isEmpty {
            guard let decoded = decodeRevision(revision), decoded.family == family, decoded.offset <= list.count else {
                return SimulatorReply.apiError(400, code: 4_000_005, message: "Invalid request revision.")
            }
            offset = decoded.offset
        }
        let end = min(list.count, offset + store.pageSize)
        let slice = offset < end ? Array(list[offset..<end]) : []
        let signed = slice.compactMap { sign($0, store: store, authority: authority, now: now) }
        var body: [String: SimJSON] = [
            "signedTransactions": .array(signed.map(SimJSON.string)),
            "revision": .string(encodeRevision(family: family, offset: end)),
            "hasMore": .bool(end < list.count),
        ]
        if historyFields {
            body["bundleId"] = .string(store.seed.bundleId)
            body["appAppleId"] = .integer(store.seed.appAppleId ?? 0)
            body["environment"] = .string(environment.rawValue)
        }
        return SimulatorReply.json(200, body)
    }

    static func encodeRevision(family: String, offset: Int) -> String {
        base64URLEncode(Data("sim-rev|\(family)|\(offset)".utf8))
    }

    static func decodeRevision(_ revision: String) -> (family: String, offset: Int)? {
        guard let data = base64URLDecode(revision), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sim-rev", let offset = Int(parts[2]), offset >= 0 else { return nil }
        return (String(parts[1]), offset)
    }

    /// The JWS transaction payload, Apple's field names, dates in epoch milliseconds.
    struct TransactionPayload: Encodable {
        var transactionId: String
        var originalTransactionId: String
        var webOrderLineItemId: String?
        var bundleId: String
        var productId: String
        var purchaseDate: Int64
        var originalPurchaseDate: Int64
        var expiresDate: Int64?
        var quantity: Int
        var type: String
        var inAppOwnershipType: String
        var signedDate: Int64
        var environment: String
        var transactionReason: String
        var storefront: String?
        var price: Int64?
        var currency: String?
        var revocationDate: Int64?
        var revocationReason: Int?
        var revocationType: String?
        var revocationPercentage: Int?
        var appAccountToken: String?
        /// Present, and true, only for a subscription the customer upgraded (Apple's `isUpgraded`).
        var isUpgraded: Bool?
        /// `subscriptionGroupIdentifier`: stated in subscription status answers only.
        var subscriptionGroupIdentifier: String? = nil
        var offerType: Int?
        var offerDiscountType: String?
        /// `appTransactionId`: one per Apple Account and app (App Store Server API 1.15).
        var appTransactionId: String? = nil
    }

    static func payload(_ transaction: SimulatorTransaction, store: SimulatorStore, now: Date) -> TransactionPayload {
        // Signed at `now`, the transaction shows only what had happened by then: a refund not yet made is not
        // there, and a refund Apple reversed by then is gone again ("not revoked" is Apple's current word).
        var transaction = transaction
        let signedAt = Int64((now.timeIntervalSince1970 * 1000).rounded())
        let refundNotYet = transaction.revocationDate.map { $0 > signedAt } ?? false
        let reversedByNow = transaction.refundReversedDate.map { $0 <= signedAt } ?? false
        if refundNotYet || reversedByNow {
            transaction.revocationDate = nil
            transaction.revocationType = nil
            transaction.revocationPercentage = nil
        }
        // Upgraded by a later purchase signed by `now` (Apple sends `isUpgraded` only when true).
        let upgraded = store.upgraded[transaction.transactionId].map { $0 <= signedAt } ?? false
        // An upgrade starts a new period at once: a `PURCHASE`, not a renewal (Apple's transactionReason).
        let isRenewal =
            transaction.isAutoRenewable && transaction.originalID != transaction.transactionId
            && transaction.upgradedFromTransactionId == nil
        return TransactionPayload(
            transactionId: transaction.transactionId,
            originalTransactionId: transaction.originalID,
            webOrderLineItemId: transaction.webOrderLineItemId,
            bundleId: transaction.bundleId ?? store.seed.bundleId,
            productId: transaction.productId,
            purchaseDate: transaction.purchaseDate,
            originalPurchaseDate: transaction.originalPurchaseDate ?? transaction.purchaseDate,
            expiresDate: transaction.expiresDate,
            quantity: transaction.quantity ?? 1,
            type: transaction.appleType,
            inAppOwnershipType: transaction.inAppOwnershipType ?? "PURCHASED",
            signedDate: Int64((now.timeIntervalSince1970 * 1000).rounded()),
            environment: transaction.storeEnvironment.rawValue,
            transactionReason: isRenewal ? "RENEWAL" : "PURCHASE",
            storefront: transaction.storefront,
            price: transaction.price,
            currency: transaction.currency,
            revocationDate: transaction.revocationDate,
            revocationReason: transaction.revocationDate == nil ? nil : (transaction.revocationReason ?? 0),
            revocationType: transaction.revocationType,
            revocationPercentage: transaction.revocationPercentage,
            appAccountToken: transaction.appAccountToken,
            isUpgraded: upgraded ? true : nil, offerType: transaction.offerType,
            offerDiscountType: transaction.offerDiscountType, appTransactionId: transaction.appTransactionId)
    }

    static func sign(
        _ transaction: SimulatorTransaction, store: SimulatorStore, authority: SigningAuthority, now: Date
    ) -> String? {
        try? JWSSigner.sign(payload: payload(transaction, store: store, now: now), authority: authority)
    }

    static func base64URLEncode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
