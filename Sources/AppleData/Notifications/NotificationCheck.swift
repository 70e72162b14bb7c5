import Foundation
import ReconModel

/// Verifies notifications the way CONTRACT §1.4 asks: the `signedPayload` like a signed transaction
/// (ES256, `x5c` chain to a trusted root at `signedDate`, Apple's marker OIDs, bundle id), then
/// the `signedTransactionInfo` and `signedRenewalInfo` inside it, each in the notification's own
/// environment.
///
/// Apple: https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload
public struct NotificationCheck: Sendable {
    package let verifier: SignedDataVerifier

    /// A check trusting `trust` and accepting `bundleIDs` (empty accepts any).
    public init(trust: TrustStore, bundleIDs: Set<String>, clock: any ReconClock = SystemClock()) {
        verifier = SignedDataVerifier(trust: trust, expectedBundleIDs: bundleIDs, clock: clock)
    }

    /// A check over an existing verifier (its trust, bundle ids and chain cache).
    public init(verifier: SignedDataVerifier) {
        self.verifier = verifier
    }

    /// The verified notification, or why it is refused (one line, never the payload).
    public func verify(_ signedPayload: String) async -> Result<VerifiedNotification, NotificationRejection> {
        let payload: ResponseBodyV2DecodedPayload
        switch await verifier.verifyAndDecodeNotification(signedPayload) {
        case .valid(let decoded): payload = decoded
        case .invalid(let failure): return .failure(NotificationRejection("notification: \(failure)"))
        }
        guard let uuid = payload.notificationUUID, !uuid.isEmpty else {
            return .failure(NotificationRejection("notification has no notificationUUID"))
        }
        guard let type = payload.notificationType, !type.isEmpty else {
            return .failure(NotificationRejection("notification has no notificationType"))
        }
        guard let signedDate = payload.signedDate else {
            return .failure(NotificationRejection("notification has no signedDate"))
        }
        // Exactly one of `data`, `summary`, `externalPurchaseToken`, `appData`; each names the bundle id and the
        // environment (a token by its `SANDBOX_` prefix), checked by the verifier above like `data`'s.
        guard payload.bodyCount == 1 else {
            return .failure(
                NotificationRejection(
                    "notification carries \(payload.bodyCount) of data, summary, externalPurchaseToken and appData "
                        + "(Apple sends exactly one)"))
        }
        let environment = payload.storeEnvironment
        var transaction: JWSTransactionDecodedPayload?
        if let jws = payload.data?.signedTransactionInfo {
            switch await verifier.verifyAndDecodeTransaction(jws) {
            case .valid(let decoded): transaction = decoded
            case .invalid(let failure):
                return .failure(NotificationRejection("signedTransactionInfo: \(failure)"))
            }
            if let inner = transaction?.storeEnvironment, let environment, inner != environment {
                return .failure(
                    NotificationRejection(
                        "signedTransactionInfo is for \(inner.rawValue), the notification for \(environment.rawValue)"))
            }
            if let inner = transaction?.bundleId, let outer = payload.data?.bundleId, inner != outer {
                return .failure(
                    NotificationRejection("signedTransactionInfo is for bundle \(inner), the notification for \(outer)")
                )
            }
        }
        var renewal: JWSRenewalInfoDecodedPayload?
        if let jws = payload.data?.signedRenewalInfo {
            switch await verifier.verifyAndDecodeRenewalInfo(jws) {
            case .valid(let decoded): renewal = decoded
            case .invalid(let failure):
                return .failure(NotificationRejection("signedRenewalInfo: \(failure)"))
            }
            if let inner = renewal?.environment.map(StoreEnvironment.init(raw:)), let environment, inner != environment
            {
                return .failure(
                    NotificationRejection(
                        "signedRenewalInfo is for \(inner.rawValue), the notification for \(environment.rawValue)"))
            }
        }
        var appTransaction: AppTransaction?
        if let jws = payload.appData?.signedAppTransactionInfo {
            switch await verifier.verifyAndDecodeAppTransaction(jws) {
            case .valid(let decoded): appTransaction = decoded
            case .invalid(let failure):
                return .failure(NotificationRejection("signedAppTransactionInfo: \(failure)"))
            }
            if let inner = appTransaction?.bundleId, let outer = payload.appData?.bundleId, inner != outer {
                return .failure(
                    NotificationRejection(
                        "signedAppTransactionInfo is for bundle \(inner), the notification for \(outer)"))
            }
        }
        var verified = VerifiedNotification(
            uuid: uuid, type: type, subtype: payload.subtype, signedDate: signedDate, environment: environment,
            bundleID: payload.payloadBundleID, transaction: transaction, renewal: renewal, signedPayload: signedPayload)
        verified.consumptionRequestReason = payload.data?.consumptionRequestReason
        verified.externalPurchaseToken = payload.externalPurchaseToken
        verified.appTransaction = appTransaction
        return .success(verified)
    }
}
