import AppStoreTestSigning
import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// App Store Server Notifications V2 signed by a test authority, with Apple's field names and
/// only values Apple sends (notificationType and subtype from Apple's `notificationType` and
/// `subtype` enumerations; https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
enum SignedNotifications {
    static let bundle = "com.example.app"

    /// A signed transaction as Apple sends it inside a notification.
    static func transaction(
        _ id: String, original: String? = nil, product: String = "coins", type: String = "Consumable",
        purchased: Int64, price: Int64 = 990, currency: String = "USD", environment: String = "Production",
        revoked: Int64? = nil, revocationType: String? = nil, signedDate: Int64, bundle: String = bundle,
        ownership: String = "PURCHASED"
    ) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload(
            transactionId: id, originalTransactionId: original ?? id, bundleId: bundle, productId: product,
            purchaseDate: purchased, originalPurchaseDate: purchased, quantity: 1, type: type,
            inAppOwnershipType: ownership, signedDate: signedDate, environment: environment, storefront: "USA",
            storefrontId: "143441", transactionReason: original == nil || original == id ? "PURCHASE" : "RENEWAL",
            price: price, currency: currency)
        payload.revocationDate = revoked
        payload.revocationReason = revoked == nil ? nil : 0
        payload.revocationType = revocationType
        return payload
    }

    /// A compact JWS notification.
    static func sign(
        _ type: String, subtype: String? = nil, uuid: String, signedDate: Int64,
        transaction: JWSTransactionDecodedPayload?, environment: String = "Production", bundle: String = bundle,
        authority: SigningAuthority? = TestAuthorities.standard, renewal: Bool = false
    ) throws -> String {
        let authority = try TestAuthorities.unwrap(authority)
        let signedTransaction = try transaction.map { try JWSSigner.sign(payload: $0, authority: authority) }
        var signedRenewal: String?
        if renewal, let transaction {
            let info = JWSRenewalInfoDecodedPayload(
                originalTransactionId: transaction.originalTransactionId, autoRenewProductId: transaction.productId,
                productId: transaction.productId, autoRenewStatus: 1, signedDate: signedDate, environment: environment)
            signedRenewal = try JWSSigner.sign(payload: info, authority: authority)
        }
        let body = NotificationBody(
            notificationType: type, subtype: subtype, notificationUUID: uuid,
            data: NotificationBody.Payload(
                appAppleId: 1_234, bundleId: bundle, environment: environment, signedTransactionInfo: signedTransaction,
                signedRenewalInfo: signedRenewal),
            signedDate: signedDate)
        return try body.signed(by: authority)
    }

    /// One line of a webhook file.
    static func line(_ signedPayload: String, receivedAt: String? = nil) -> String {
        let received = receivedAt.map { ",\"received_at\":\"\($0)\"" } ?? ""
        return "{\"signedPayload\":\"\(signedPayload)\"\(received)}"
    }

    /// A DER file holding the standard test authority's root (for `--trusted-root`).
    static func rootFile(in directory: String) throws -> String {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let path = directory + "/test-root.der"
        try Data(authority.rootDER).write(to: URL(fileURLWithPath: path))
        return path
    }
}
