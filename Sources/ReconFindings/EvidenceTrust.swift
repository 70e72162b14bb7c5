import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Which evidence may speak about this app's purchase, and what it proves.
extension EvidenceRecord {
    /// The bundle id a piece of evidence names: the entry's own, else the whole receipt's.
    package var namedBundleID: String? {
        entry.bundleID ?? bundleID
    }

    /// Whether evidence names a bundle id that is not one of the app's own (only when the app's
    /// bundle ids are configured).
    package func isForeign(in context: DetectionContext) -> Bool {
        guard !context.bundleIDs.isEmpty, let bundle = namedBundleID else { return false }
        return !context.bundleIDs.contains(bundle)
    }

    /// Whether evidence may speak about this app's purchase at all: it is for one of the app's
    /// bundle ids, its signature is not known to be bad, and it is not an Apple answer that
    /// rejected the receipt or failed.
    ///
    /// Everything else is reported elsewhere (`BUNDLE_MISMATCH`, `INVALID_RECEIPT`) and ignored
    /// by the transaction detectors.
    package func isUsable(in context: DetectionContext) -> Bool {
        if isForeign(in: context) { return false }
        if isXcodeTestReceipt { return true }
        if signature == .invalid || signature == .untrusted { return false }
        if source == .verifyReceipt, let status = appleStatus, !VerifyReceiptStatus.usableEvidence.contains(status) {
            return false
        }
        return true
    }

    /// Whether evidence is an untrusted app receipt of type `Xcode`, or an untrusted JWS with environment `Xcode` or
    /// `LocalTesting`: StoreKit testing signs with a local certificate, so it is a test purchase (never revenue), not
    /// a forgery.
    ///
    /// It is never authentic and never proves Production.
    package var isXcodeTestReceipt: Bool {
        guard source == .offline, signature == .untrusted, let format = receiptFormat else {
            return false
        }
        return ReceiptFormat.isLocalTest(format, environment: entry.environment ?? environment)
    }

    /// Whether evidence proves the purchase happened: Apple's verifyReceipt answered 0, the App
    /// Store Server API returned it, or a receipt whose signature was verified offline says so.
    package var isAuthentic: Bool {
        switch source {
        case .verifyReceipt: return appleStatus == VerifyReceiptStatus.valid
        // A notification's signed transaction was verified like a Server API answer.
        case .serverAPI, .notification: return true
        case .offline: return signature == .verified
        }
    }

    /// Whether evidence is Apple confirming the purchase is valid now: verifyReceipt status 0,
    /// the Server API, or a StoreKit 2 signed transaction verified offline (CONTRACT §3: that settles
    /// a pending transaction; an app receipt's offline signature does not).
    package var confirmsValidity: Bool {
        switch source {
        case .verifyReceipt: return appleStatus == VerifyReceiptStatus.valid
        case .serverAPI, .notification: return true  // a notification is Apple's signed word
        case .offline: return receiptFormat == .signedTransaction && signature == .verified
        }
    }

    /// How directly evidence shows the purchase, most direct first: the receipt the customer uploaded (its signature
    /// verified here), Apple's verifyReceipt answer for a receipt, the App Store Server API, an App Store Server
    /// Notification, then anything unverified.
    ///
    /// A finding cites the most direct evidence it rests on (``mostDirect(_:)``).
    package var directness: Int {
        switch source {
        case .offline: return signature == .verified ? 0 : 4
        case .verifyReceipt: return 1
        case .serverAPI: return 2
        case .notification: return 3
        }
    }

    /// The most direct of `records` (see ``directness``); the first in evidence order among equals.
    package static func mostDirect(_ records: [EvidenceRecord]) -> EvidenceRecord? {
        var best: EvidenceRecord?
        for record in records where best.map({ record.directness < $0.directness }) ?? true {
            best = record
        }
        return best
    }

    /// The environment evidence establishes in a way that can be trusted, or nil.
    ///
    /// Trusted: Apple's status 21007 (Sandbox) or 21008 (Production); a verifyReceipt answer with
    /// status 0; a Server API answer; an offline receipt or JWS whose signature was verified.
    /// A claim from an unverified offline decode is not trusted.
    package var trustedEnvironment: StoreEnvironment? {
        switch source {
        case .verifyReceipt:
            if appleStatus == VerifyReceiptStatus.valid { return effectiveEnvironment }
            return VerifyReceiptStatus.environment(impliedBy: appleStatus)
        case .serverAPI, .notification:
            return effectiveEnvironment
        case .offline:
            return signature == .verified ? effectiveEnvironment : nil
        }
    }
}

extension ReceiptFormat {
    /// Whether a receipt of `format` stating `environment` is one StoreKit testing signs locally.
    package static func isLocalTest(_ format: ReceiptFormat, environment: StoreEnvironment?) -> Bool {
        switch format {
        case .appReceipt: return environment == .xcode
        case .signedTransaction: return environment == .xcode || environment == .localTesting
        case .transactionReceipt: return false
        }
    }
}

extension ReceiptCase {
    /// Why an uploaded receipt is evidence of nothing: its offline decode failed, or its signature
    /// or chain failed (an untrusted Xcode receipt excepted, see ``EvidenceRecord/isXcodeTestReceipt``);
    /// nil when it passed, was not checked, or Apple answered 0 for it (Apple's word on its own receipt).
    package var offlineFailure: (kind: ReceiptDecodingError.Kind, reason: String)? {
        guard appleStatus != VerifyReceiptStatus.valid else { return nil }
        if let failure = decodeFailure { return (failure.kind, failure.reason) }
        guard let decoded else { return nil }
        switch decoded.signature {
        case .invalid:
            return (.badSignature, decoded.signatureDetail ?? "the signature does not match")
        case .untrusted where ReceiptFormat.isLocalTest(decoded.format, environment: decoded.environment):
            return nil
        case .untrusted:
            return (.untrustedChain, decoded.signatureDetail ?? "the certificate chain does not reach a trusted root")
        case .verified, .notChecked:
            return nil
        }
    }
}
