import AppStoreTestSigning
import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconModel

/// Notifications of every 2026 shape, built as Apple writes them (field names of Apple's `ResponseBodyV2DecodedPayload`,
/// `ExternalPurchaseToken`, `AppData`, `TransactionCommitmentInfo`) and signed by the test authority.
enum AppleWordNotifications {
    static let bundle = SignedNotifications.bundle

    static func signed(_ object: [String: Any]) throws -> String {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let bytes = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try JWSSigner.sign(payloadData: bytes, authority: authority)
    }

    /// A notification with `data` (a signed transaction, and renewal info when given).
    static func withData(
        _ type: String, subtype: String? = nil, uuid: String, signedDate: Int64, transaction: [String: Any]?,
        renewal: [String: Any]? = nil, reason: String? = nil, environment: String = "Production"
    ) throws -> String {
        var data: [String: Any] = ["bundleId": bundle, "environment": environment, "appAppleId": 1_234]
        if let transaction { data["signedTransactionInfo"] = try signed(transaction) }
        if let renewal { data["signedRenewalInfo"] = try signed(renewal) }
        if let reason { data["consumptionRequestReason"] = reason }
        var object: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "signedDate": signedDate, "version": "2.0",
            "data": data,
        ]
        if let subtype { object["subtype"] = subtype }
        return try signed(object)
    }

    /// `EXTERNAL_PURCHASE_TOKEN` / `UNREPORTED`.
    static func unreportedToken(_ id: String, uuid: String, signedDate: Int64) throws -> String {
        try signed([
            "notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED", "notificationUUID": uuid,
            "signedDate": signedDate, "version": "2.0",
            "externalPurchaseToken": [
                "externalPurchaseId": id, "tokenCreationDate": signedDate - 86_400_000, "appAppleId": 1_234,
                "bundleId": bundle,
            ] as [String: Any],
        ])
    }

    /// `RESCIND_CONSENT` for the Apple Account of `appTransactionID`.
    static func rescindConsent(appTransactionID: String, uuid: String, signedDate: Int64) throws -> String {
        let appTransaction: [String: Any] = [
            "receiptType": "Production", "appAppleId": 1_234, "bundleId": bundle, "applicationVersion": "1.0",
            "receiptCreationDate": signedDate, "originalPurchaseDate": signedDate - 86_400_000,
            "appTransactionId": appTransactionID, "originalPlatform": "iOS",
        ]
        return try signed([
            "notificationType": "RESCIND_CONSENT", "notificationUUID": uuid, "signedDate": signedDate,
            "version": "2.0",
            "appData": [
                "appAppleId": 1_234, "bundleId": bundle, "environment": "Production",
                "signedAppTransactionInfo": try signed(appTransaction),
            ] as [String: Any],
        ])
    }

    /// A signed transaction's claims.
    static func transaction(
        _ id: String, original: String? = nil, product: String, type: String = "Consumable", purchased: Int64,
        expires: Int64? = nil, price: Int64, signedDate: Int64, appTransactionID: String? = nil,
        commitment: (period: Int, price: Int64, expires: Int64)? = nil
    ) -> [String: Any] {
        var object: [String: Any] = [
            "transactionId": id, "originalTransactionId": original ?? id, "bundleId": bundle, "productId": product,
            "purchaseDate": purchased, "originalPurchaseDate": purchased, "quantity": 1, "type": type,
            "inAppOwnershipType": "PURCHASED", "signedDate": signedDate, "environment": "Production",
            "storefront": "USA", "storefrontId": "143441", "price": price, "currency": "USD",
            "transactionReason": original == nil || original == id ? "PURCHASE" : "RENEWAL",
        ]
        if let expires { object["expiresDate"] = expires }
        if let appTransactionID { object["appTransactionId"] = appTransactionID }
        if let commitment {
            object["billingPlanType"] = "MONTHLY"
            object["commitmentInfo"] = [
                "billingPeriodNumber": commitment.period, "totalBillingPeriods": 12,
                "commitmentPrice": commitment.price, "commitmentExpiresDate": commitment.expires,
            ]
        }
        return object
    }

    /// A signed renewal info with a commitment's auto-renew status.
    static func renewal(original: String, product: String, signedDate: Int64, commitmentAutoRenew: Int) -> [String: Any]
    {
        [
            "originalTransactionId": original, "productId": product, "autoRenewProductId": product,
            "autoRenewStatus": 1, "signedDate": signedDate, "environment": "Production",
            "renewalBillingPlanType": "MONTHLY",
            "commitmentInfo": [
                "commitmentAutoRenewStatus": commitmentAutoRenew, "commitmentAutoRenewProductId": product,
                "commitmentRenewalBillingPlanType": "MONTHLY",
            ] as [String: Any],
        ]
    }
}
