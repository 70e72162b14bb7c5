import AppStoreSimulator
import AppStoreTestSigning
import Foundation
import IAPRecon

/// The demo's cases of Apple's word as of 2026 (CONTRACT §7): consumption requests, an unreported external purchase
/// token, and a parent's rescinded consent for an Apple Account two app accounts share.
extension DemoDataset.Builder {
    /// Two customers asked Apple for a refund; both consented to share consumption information.
    ///
    /// One asked two hours
    /// before the as-of (the demo answers it), one twenty hours before: its 12-hour deadline passed unanswered
    /// (`CONSUMPTION_UNANSWERED`). Apple's `CONSUMPTION_REQUEST`s come with the notification history.
    func addConsumptionRequests() throws {
        consentLines = ["user_id,consented_at,withdrawn_at"]
        for (user, askedAgo) in [("user-refund-request", 2 * hour), ("user-refund-late", 20 * hour)] {
            var p = fresh("coins_100", user: user, daysAgo: 2)
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            seedTransactions[seedTransactions.count - 1].consumptionRequestDate = asOf - askedAgo
            rows.append(p)
            consentLines.append("\(user),\(Timestamp.iso(p.purchaseDate - 30 * day)),")
            if askedAgo > 12 * hour { injected.append((.consumptionUnanswered, p.transactionID)) }
        }
    }

    /// Two app accounts on one Apple Account, a parent's rescinded consent, and an unreported token.
    ///
    /// Two app accounts bought on one Apple Account (the same `appTransactionId`), and a parent withdrew consent
    /// for the minor's use of the app (`RESCIND_CONSENT`: `CONSENT_RESCINDED`); Apple says an external purchase token
    /// was never reported (`EXTERNAL_PURCHASE_TOKEN` / `UNREPORTED`: `EXTERNAL_PURCHASE_UNREPORTED`). Both came to
    /// the backend's webhook.
    func addAppleAlarms() throws {
        let appTransactionID = "704289000000001"
        for (k, product) in ["remove_ads", "coins_100"].enumerated() {
            var p = fresh(product, user: "user-shared-account-\(k + 1)", daysAgo: 8 - Int64(k))
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            seedTransactions[seedTransactions.count - 1].appTransactionId = appTransactionID
            rows.append(p)
        }
        let rescinded = asOf - 3 * day
        let appTransaction: [String: Any] = [
            "receiptType": "Production", "appAppleId": 1_234_567_890, "bundleId": bundle,
            "applicationVersion": "4.2", "receiptCreationDate": rescinded, "originalPurchaseDate": asOf - 40 * day,
            "appTransactionId": appTransactionID, "originalPlatform": "iOS",
        ]
        try notify([
            "notificationType": "RESCIND_CONSENT", "notificationUUID": "5d1c7a52-0f3e-4b8e-9a61-2f4c8d9e7b10",
            "signedDate": rescinded, "version": "2.0",
            "appData": [
                "appAppleId": 1_234_567_890, "bundleId": bundle, "environment": "Production",
                "signedAppTransactionInfo": try sign(appTransaction),
            ] as [String: Any],
        ])
        injected.append((.consentRescinded, ""))
        let token = "a6f0e1c2-7b3d-4e5f-8a9b-0c1d2e3f4a5b"
        try notify([
            "notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED",
            "notificationUUID": "8e2b4c6d-1a3f-4d5e-b7c9-0a1b2c3d4e5f", "signedDate": asOf - 2 * day,
            "version": "2.0",
            "externalPurchaseToken": [
                "externalPurchaseId": token, "tokenCreationDate": asOf - 5 * day, "appAppleId": 1_234_567_890,
                "bundleId": bundle,
            ] as [String: Any],
        ])
        injected.append((.externalPurchaseUnreported, token))
    }

    /// A JWS of `object` (keys sorted) signed by the simulator's authority.
    func sign(_ object: [String: Any]) throws -> String {
        let bytes = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return try JWSSigner.sign(payloadData: bytes, authority: authority)
    }

    /// Adds a notification to the webhook's file, as the backend stored Apple's POST body.
    func notify(_ object: [String: Any]) throws {
        notificationLines.append("{\"signedPayload\":\"\(try sign(object))\"}")
    }
}
