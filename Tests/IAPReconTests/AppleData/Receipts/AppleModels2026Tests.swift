import AppStoreTestSigning
import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconModel

/// Apple's example payloads of 2026 (App Store Server Library test models), decoded with the values Apple's own
/// tests assert, then signed by the test authority and verified like any notification.
@Suite("Apple's 2026 payloads")
struct AppleModels2026Tests {
    static func model(_ name: String) throws -> Data {
        try Data(contentsOf: ReceiptFixtures.url("apple-server-library/models/\(name).json"))
    }

    @Test func signedTransactionStatesMonthlyBillingAndItsCommitment() throws {
        let payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Self.model("signedTransaction"))
        #expect(payload.billingPlanType == "MONTHLY")
        #expect(payload.commitmentInfo?.billingPeriodNumber == 3)
        #expect(payload.commitmentInfo?.commitmentExpiresDate == 1_698_150_000_000)
        #expect(payload.commitmentInfo?.commitmentPrice == 119_880)
        #expect(payload.commitmentInfo?.totalBillingPeriods == 12)
        #expect(payload.appTransactionId == "71134")
        let entry = try #require(payload.evidence.entries.first)
        #expect(entry.appTransactionID == "71134")
        #expect(
            entry.commitment
                == CommitmentTerms(
                    billingPlanType: "MONTHLY", billingPeriodNumber: 3, totalBillingPeriods: 12,
                    commitmentPrice: 119_880, commitmentExpiresDate: 1_698_150_000_000))
    }

    @Test func signedRenewalInfoStatesWhatFollowsTheCommitment() throws {
        let payload = try JSONDecoder().decode(
            JWSRenewalInfoDecodedPayload.self, from: Self.model("signedRenewalInfo"))
        #expect(payload.renewalBillingPlanType == "MONTHLY")
        #expect(payload.commitmentInfo?.commitmentAutoRenewProductId == "com.example.product.commitment")
        #expect(payload.commitmentInfo?.commitmentAutoRenewStatus == 1)
        #expect(payload.commitmentInfo?.commitmentRenewalBillingPlanType == "MONTHLY")
        #expect(payload.commitmentInfo?.commitmentRenewalDate == 1_698_149_500_000)
        #expect(payload.commitmentInfo?.commitmentRenewalPrice == 9_990)
        #expect(payload.renewalPrice == 9_990)
        #expect(payload.appTransactionId == "71134")
        let commitment = try #require(payload.renewalCommitment)
        #expect(commitment.originalTransactionID == "12345")
        #expect(commitment.commitmentAutoRenewStatus == 1)
        #expect(commitment.isInBillingRetryPeriod == true)
        #expect(commitment.environment == .localTesting)
    }

    @Test func consumptionRequestNotificationDecodes() throws {
        let payload = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self, from: Self.model("signedConsumptionRequestNotification"))
        #expect(payload.notificationType == "CONSUMPTION_REQUEST")
        #expect(payload.subtype == nil)
        #expect(payload.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(payload.version == "2.0")
        #expect(payload.signedDate == 1_698_148_900_000)
        #expect(payload.data?.appAppleId == 41_234)
        #expect(payload.data?.bundleId == "com.example")
        #expect(payload.data?.bundleVersion == "1.2.3")
        #expect(payload.data?.status == 1)
        #expect(payload.data?.consumptionRequestReason == "UNINTENDED_PURCHASE")
        #expect(payload.storeEnvironment == .localTesting)
        #expect(payload.bodyCount == 1)
    }

    @Test(arguments: [
        (
            "signedExternalPurchaseTokenNotification", "b2158121-7af9-49d4-9561-1f588205523e",
            StoreEnvironment.production
        ),
        (
            "signedExternalPurchaseTokenSandboxNotification", "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e",
            StoreEnvironment.sandbox
        ),
    ])
    func externalPurchaseTokenNotificationDecodes(name: String, id: String, environment: StoreEnvironment) throws {
        let payload = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Self.model(name))
        #expect(payload.notificationType == "EXTERNAL_PURCHASE_TOKEN")
        #expect(payload.subtype == "UNREPORTED")
        #expect(payload.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(payload.version == "2.0")
        #expect(payload.signedDate == 1_698_148_900_000)
        #expect(payload.data == nil)
        #expect(payload.externalPurchaseToken?.externalPurchaseId == id)
        #expect(payload.externalPurchaseToken?.tokenCreationDate == 1_698_148_950_000)
        #expect(payload.externalPurchaseToken?.appAppleId == 55_555)
        #expect(payload.externalPurchaseToken?.bundleId == "com.example")
        #expect(payload.payloadBundleID == "com.example")
        #expect(payload.storeEnvironment == environment)
    }

    @Test func rescindConsentNotificationDecodes() throws {
        let payload = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self, from: Self.model("signedRescindConsentNotification"))
        #expect(payload.notificationType == "RESCIND_CONSENT")
        #expect(payload.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(payload.signedDate == 1_698_148_900_000)
        #expect(payload.data == nil)
        #expect(payload.appData?.appAppleId == 41_234)
        #expect(payload.appData?.bundleId == "com.example")
        #expect(payload.appData?.environment == "LocalTesting")
        #expect(payload.appData?.signedAppTransactionInfo == "signed_app_transaction_info_value")
        #expect(payload.payloadBundleID == "com.example")
        #expect(payload.storeEnvironment == .localTesting)
    }

    @Test func appTransactionDecodes() throws {
        let payload = try JSONDecoder().decode(AppTransaction.self, from: Self.model("appTransaction"))
        #expect(payload.receiptType == "LocalTesting")
        #expect(payload.appAppleId == 531_412)
        #expect(payload.bundleId == "com.example")
        #expect(payload.applicationVersion == "1.2.3")
        #expect(payload.versionExternalIdentifier == 512)
        #expect(payload.receiptCreationDate == 1_698_148_900_000)
        #expect(payload.originalPurchaseDate == 1_698_148_800_000)
        #expect(payload.originalApplicationVersion == "1.1.2")
        #expect(payload.deviceVerification == "device_verification_value")
        #expect(payload.deviceVerificationNonce == "48ccfa42-7431-4f22-9908-7e88983e105a")
        #expect(payload.preorderDate == 1_698_148_700_000)
        #expect(payload.appTransactionId == "71134")
        #expect(payload.originalPlatform == "iOS")
    }

    @Test func anOfferCodeOnAOneTimePurchaseIsAnOffer() {
        var entry = EvidenceEntry(transactionID: "t1", price: Money(milliunits: 1_990, currency: "USD"))
        #expect(entry.offer == nil)
        entry.offerDiscountType = "ONE_TIME"
        #expect(entry.offer == .discounted)
        entry.offerDiscountType = nil
        entry.offerType = 4  // win-back
        #expect(entry.offer == .discounted)
    }

    @Test func appDataDecodes() throws {
        let payload = try JSONDecoder().decode(AppData.self, from: Self.model("appData"))
        #expect(payload.appAppleId == 987_654_321)
        #expect(payload.bundleId == "com.example")
        #expect(payload.environment == "Sandbox")
        #expect(payload.signedAppTransactionInfo == "signed-app-transaction-info")
    }

    // MARK: - Signed by the test authority and verified

    /// Apple's example notification `name`, its placeholder JWS replaced by Apple's example payloads signed by the
    /// test authority, itself signed.
    static func signedNotification(_ name: String) throws -> String {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        var object = try #require(try JSONSerialization.jsonObject(with: model(name)) as? [String: Any])
        func signed(_ model: String) throws -> String {
            try JWSSigner.sign(payloadData: Self.model(model), authority: authority)
        }
        if var data = object["data"] as? [String: Any] {
            if data["signedTransactionInfo"] != nil { data["signedTransactionInfo"] = try signed("signedTransaction") }
            if data["signedRenewalInfo"] != nil { data["signedRenewalInfo"] = try signed("signedRenewalInfo") }
            object["data"] = data
        }
        if var appData = object["appData"] as? [String: Any] {
            appData["signedAppTransactionInfo"] = try signed("appTransaction")
            object["appData"] = appData
        }
        let bytes = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try JWSSigner.sign(payloadData: bytes, authority: authority)
    }

    func check() throws -> NotificationCheck {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let trust = try TrustStore(roots: []).adding(der: authority.rootDER)
        return NotificationCheck(trust: trust, bundleIDs: ["com.example"], clock: ManualClock(ReceiptFixtures.fixedNow))
    }

    @Test(arguments: [
        "signedExternalPurchaseTokenNotification", "signedExternalPurchaseTokenSandboxNotification",
        "signedRescindConsentNotification", "signedConsumptionRequestNotification", "signedSummaryNotification",
        "signedNotification",
    ])
    func everyShapeVerifiesWithItsBundleID(name: String) async throws {
        let result = try await check().verify(try Self.signedNotification(name))
        let notification = try #require(try? result.get(), "\(result)")
        #expect(notification.bundleID == "com.example")
        #expect(notification.uuid == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
    }

    @Test func verifiedNotificationsCarryTheirTokenAppTransactionAndReason() async throws {
        let checker = try check()
        let token = try await checker.verify(
            try Self.signedNotification("signedExternalPurchaseTokenSandboxNotification")
        )
        .get()
        #expect(token.externalPurchaseToken?.externalPurchaseId == "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e")
        #expect(token.environment == .sandbox)
        let rescind = try await checker.verify(try Self.signedNotification("signedRescindConsentNotification")).get()
        #expect(rescind.appTransaction?.appTransactionId == "71134")
        #expect(rescind.appTransactionID == "71134")
        #expect(rescind.environment == .localTesting)
        let request = try await checker.verify(try Self.signedNotification("signedConsumptionRequestNotification"))
            .get()
        #expect(request.consumptionRequestReason == "UNINTENDED_PURCHASE")
        #expect(request.transaction?.commitmentInfo?.commitmentPrice == 119_880)
        #expect(request.renewal?.commitmentInfo?.commitmentAutoRenewStatus == 1)
    }

    @Test func aNotificationWithTwoBodiesOrNoneIsRefused() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        for body in [
            #"{"notificationType":"TEST","notificationUUID":"u1","signedDate":1698148900000}"#,
            #"{"notificationType":"TEST","notificationUUID":"u2","signedDate":1698148900000,"#
                + #""data":{"bundleId":"com.example","environment":"Sandbox"},"#
                + #""appData":{"bundleId":"com.example","environment":"Sandbox"}}"#,
        ] {
            let jws = try JWSSigner.sign(payloadData: Data(body.utf8), authority: authority)
            guard case .failure(let rejection) = try await check().verify(jws) else {
                Issue.record("accepted: \(body)")
                continue
            }
            #expect(rejection.reason.contains("Apple sends exactly one") || rejection.reason.contains("bundle"))
        }
    }
}
