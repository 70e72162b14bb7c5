import Foundation
import ReconModel

/// Decodes any uploaded receipt offline into ``ReceiptEvidence``: the one entry point the
/// verification stage calls (CONTRACT §3).
///
/// - `transaction-receipt`: ``LegacyReceiptDecoder``; signature `notChecked`.
/// - `app-receipt`: ``AppReceiptDecoder``; the CMS signature is checked against ``trust``.
///   An untrusted or invalid signature still yields evidence, marked as such.
/// - `signed-transaction`: ``SignedDataVerifier``; a chain or signature that fails is a
///   `.failure` (`untrustedChain` / `badSignature`), since nothing in it can be believed, except
///   a transaction whose environment is `Xcode` or `LocalTesting` (StoreKit testing signs with a
///   local key, never chained to Apple): that is a test purchase, returned with signature
///   `untrusted` so it is never revenue and never proves anything else.
///
/// The bundle id is not a decoding matter: evidence for another app is returned with its
/// bundle id, and the findings layer reports `BUNDLE_MISMATCH` (see ``isExpectedBundle(_:)``).
/// Likewise the environment is reported, not enforced. Reuse one decoder for a whole run:
/// it caches verified JWS chains.
public struct ReceiptDecoder: Sendable {
    /// Roots every signature must chain to.
    public let trust: TrustStore
    /// The app's own bundle ids (for ``isExpectedBundle(_:)``); empty means "any".
    public let expectedBundleIDs: Set<String>

    private let legacy: LegacyReceiptDecoder
    private let appReceipts: AppReceiptDecoder
    private let jws: SignedDataVerifier

    /// A decoder.
    ///
    /// - Parameters:
    ///   - trust: trusted roots, ``TrustStore/apple`` plus any `--trusted-root`.
    ///   - expectedBundleIDs: the app's bundle ids (`--bundle-id`).
    ///   - clock: "now" for chains of payloads that carry no date of their own.
    public init(trust: TrustStore, expectedBundleIDs: Set<String>, clock: any ReconClock = SystemClock()) {
        self.trust = trust
        self.expectedBundleIDs = expectedBundleIDs
        self.legacy = LegacyReceiptDecoder()
        self.appReceipts = AppReceiptDecoder(trust: trust, clock: clock)
        self.jws = SignedDataVerifier(trust: trust, clock: clock)
    }

    /// Decodes one uploaded receipt.
    ///
    /// - Returns: the evidence, or why the payload cannot be decoded or believed at all. Never
    ///   traps, whatever `receipt.data` holds.
    public func decode(_ receipt: UploadedReceipt) async -> Result<ReceiptEvidence, ReceiptDecodingError> {
        switch receipt.format {
        case .transactionReceipt:
            return legacy.decode(receipt.data)
        case .appReceipt:
            return await appReceipts.decode(receipt.data)
        case .signedTransaction:
            switch await jws.verifyAndDecodeTransaction(receipt.data.trimmingASCIISpacesAndNewlines()) {
            case .valid(let payload):
                return .success(payload.evidence)
            case .invalid(let failure):
                if case .invalidChain = failure, let test = Self.localTestTransaction(receipt.data) {
                    return .success(test)
                }
                return .failure(ReceiptDecodingError(failure))
            }
        }
    }

    /// A JWS transaction whose payload states environment `Xcode` or `LocalTesting`, as untrusted
    /// evidence of a test purchase; nil for anything else.
    package static func localTestTransaction(_ data: String) -> ReceiptEvidence? {
        // Only the payload is read: the local key is no evidence of anything but a test purchase.
        guard case .success(let segments) = JWSSegments.split(data.trimmingASCIISpacesAndNewlines()),
            let bytes = ReceiptBase64.decode(segments.payload, alphabet: .url),
            let payload = try? JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(bytes)),
            let environment = payload.storeEnvironment, environment == .xcode || environment == .localTesting
        else { return nil }
        var evidence = payload.evidence
        evidence.signature = .untrusted
        evidence.signatureDetail = "signed locally by StoreKit testing (environment \(environment)), not by Apple"
        return evidence
    }

    /// Whether evidence belongs to one of ``expectedBundleIDs`` (true when none are configured,
    /// false when the evidence names no bundle while some are configured).
    public func isExpectedBundle(_ evidence: ReceiptEvidence) -> Bool {
        guard !expectedBundleIDs.isEmpty else { return true }
        guard let bundleID = evidence.bundleID else { return false }
        return expectedBundleIDs.contains(bundleID)
    }
}

extension JWSTransactionDecodedPayload {
    /// This verified transaction as evidence: one entry carrying price, storefront, type,
    /// revocation and environment (no entry when the payload has no `transactionId`).
    ///
    /// Call it only on a payload that ``SignedDataVerifier`` returned as `.valid`: the
    /// evidence says `signature: .verified`.
    public var evidence: ReceiptEvidence {
        let payload = self
        let environment = payload.storeEnvironment
        var entries: [EvidenceEntry] = []
        if let transactionID = payload.transactionId, !transactionID.isEmpty {
            var price: Money?
            if let milliunits = payload.price, let currency = payload.currency, !currency.isEmpty {
                price = Money(milliunits: milliunits, currency: currency.uppercased())
            }
            entries.append(
                EvidenceEntry(
                    transactionID: transactionID,
                    originalTransactionID: payload.originalTransactionId,
                    productID: payload.productId,
                    quantity: payload.quantity.map { Int($0) },
                    purchaseDate: payload.purchaseDate,
                    originalPurchaseDate: payload.originalPurchaseDate,
                    expiresDate: payload.expiresDate,
                    cancellationDate: payload.revocationDate,
                    cancellationReason: payload.revocationReason.map { String($0) },
                    revocationType: payload.revocationType,
                    revocationPercentage: payload.revocationPercentage.map { Int($0) },
                    webOrderLineItemID: payload.webOrderLineItemId,
                    price: price,
                    storefront: payload.storefront,
                    productType: payload.type,
                    environment: environment,
                    bundleID: payload.bundleId,
                    appAccountToken: payload.appAccountToken,
                    inAppOwnershipType: payload.inAppOwnershipType,
                    signedDate: payload.signedDate,
                    isUpgraded: payload.isUpgraded == true ? true : nil,
                    offerType: payload.offerType.map { Int($0) }, offerDiscountType: payload.offerDiscountType))
            entries[entries.count - 1].appTransactionID = payload.appTransactionId
            if payload.billingPlanType != nil || payload.commitmentInfo != nil {
                let info = payload.commitmentInfo
                entries[entries.count - 1].commitment = CommitmentTerms(
                    billingPlanType: payload.billingPlanType,
                    billingPeriodNumber: info?.billingPeriodNumber.map { Int($0) },
                    totalBillingPeriods: info?.totalBillingPeriods.map { Int($0) },
                    commitmentPrice: info?.commitmentPrice,
                    commitmentExpiresDate: info?.commitmentExpiresDate)
            }
        }
        return ReceiptEvidence(
            format: .signedTransaction, environment: environment, bundleID: payload.bundleId,
            creationDate: payload.signedDate, signature: .verified, entries: entries)
    }
}

extension SignedDataVerifier {
    /// A verified transaction as evidence (see ``JWSTransactionDecodedPayload/evidence``).
    public func evidence(from payload: JWSTransactionDecodedPayload) -> ReceiptEvidence {
        payload.evidence
    }
}

extension ReceiptDecodingError {
    /// The decoding error a rejected JWS amounts to.
    public init(_ failure: JWSVerificationFailure) {
        switch failure {
        case .malformed:
            self.init(.malformed, failure.description)
        case .unsupportedAlgorithm, .invalidSignature:
            self.init(.badSignature, failure.description)
        case .missingX5C, .invalidChain:
            self.init(.untrustedChain, failure.description)
        case .bundleMismatch, .environmentMismatch:
            // Not produced by ReceiptDecoder (it sets no expectations); kept for other callers.
            self.init(.malformed, failure.description)
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace (spaces, tabs, line breaks).
    package func trimmingASCIISpacesAndNewlines() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
