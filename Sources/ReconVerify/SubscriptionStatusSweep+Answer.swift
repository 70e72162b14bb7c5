import AppleData
import Foundation
import ReconModel
import ReconStorage

extension SubscriptionStatusSweep {
    /// How asking about one subscription ended.
    package enum Outcome: Sendable {
        /// Apple answered and both JWS verified.
        case answered(VerifiedStatus)
        /// The answer is not usable; `evidence` is its signed transaction when that one verified.
        case rejected(id: String, reason: String, evidence: VerificationRecord?)
        /// Apple knows no such subscription (4040005 in both environments), or its answer does not list it.
        case notFound(id: String)
        /// No answer within the retry budget, or Apple refused (credentials, bad request).
        case unreachable(id: String, reason: String, attempts: Int)
    }

    /// A verified status answer: the status (its `learnedAt` set when kept), the signed transaction as a Server API
    /// verification, and the latest transaction's `purchaseDate`.
    package struct VerifiedStatus: Sendable {
        package var status: SubscriptionStatus
        package var evidence: VerificationRecord
        package var purchaseDate: Int64?
        /// The renewal info's word on a 12-month commitment.
        package var renewalCommitment: RenewalCommitment? = nil
    }

    /// Asks Apple about the subscription `id` and verifies what it says; never throws: every end is an outcome.
    package func ask(_ id: String) async -> Outcome {
        let answer: SubscriptionStatusesAnswer
        switch await client.allSubscriptionStatuses(transactionID: id) {
        case .success(let value):
            answer = value
        case .unreachable(let reason, let attempts):
            return .unreachable(id: id, reason: reason, attempts: attempts)
        case .failure(let failure):
            if failure.apiError?.isNotFoundInEnvironment == true { return .notFound(id: id) }
            return .unreachable(id: id, reason: "Apple refused: \(failure)", attempts: failure.attempts)
        }
        guard let item = answer.lastTransaction(originalTransactionID: id) else { return .notFound(id: id) }
        guard let signedTransaction = item.signedTransactionInfo, !signedTransaction.isEmpty else {
            return .rejected(id: id, reason: "the answer has no signedTransactionInfo", evidence: nil)
        }
        let transaction: JWSTransactionDecodedPayload
        switch await verifier.verifyAndDecodeTransaction(signedTransaction) {
        case .valid(let payload): transaction = payload
        case .invalid(let failure): return .rejected(id: id, reason: "signedTransactionInfo: \(failure)", evidence: nil)
        }
        guard transaction.originalTransactionId == id else {
            return .rejected(
                id: id,
                reason: "signedTransactionInfo is for subscription \(transaction.originalTransactionId ?? "(none)")",
                evidence: nil)
        }
        let environment = transaction.storeEnvironment ?? answer.environment
        guard environment == answer.environment else {
            return .rejected(
                id: id,
                reason: "signedTransactionInfo is for \(environment.rawValue), the answer for "
                    + answer.environment.rawValue, evidence: nil)
        }
        let stated = transaction.evidence
        let record = VerificationRecord(
            recordIDs: [], transactionID: transaction.transactionId, source: .serverAPI, httpStatus: 200,
            environment: environment, bundleID: stated.bundleID, outcome: .valid,
            detail: "Get All Subscription Statuses: signed transaction verified", attempts: answer.attempts,
            entries: stated.entries, signature: .verified)
        guard let raw = item.status, let small = Int(exactly: raw), let code = SubscriptionStatus.Code(rawValue: small)
        else {
            return .rejected(
                id: id, reason: "status \(item.status.map(String.init) ?? "(none)") is not Apple's 1…5",
                evidence: record)
        }
        var renewal: JWSRenewalInfoDecodedPayload?
        if let signedRenewal = item.signedRenewalInfo, !signedRenewal.isEmpty {
            switch await verifier.verifyAndDecodeRenewalInfo(signedRenewal) {
            case .valid(let payload): renewal = payload
            case .invalid(let failure):
                return .rejected(id: id, reason: "signedRenewalInfo: \(failure)", evidence: record)
            }
            if let named = renewal?.originalTransactionId, named != id {
                return .rejected(id: id, reason: "signedRenewalInfo is for subscription \(named)", evidence: record)
            }
            if let inner = renewal?.storeEnvironment, inner != environment {
                return .rejected(
                    id: id,
                    reason: "signedRenewalInfo is for \(inner.rawValue), the answer for \(environment.rawValue)",
                    evidence: record)
            }
        }
        let status = SubscriptionStatus(
            originalTransactionID: id, environment: environment, status: code, productID: transaction.productId,
            expiresDate: transaction.expiresDate, gracePeriodExpiresDate: renewal?.gracePeriodExpiresDate,
            autoRenew: renewal?.autoRenewStatus.map { $0 == 1 }, revocationDate: transaction.revocationDate,
            price: stated.entries.first?.price, learnedAt: 0)
        return .answered(
            VerifiedStatus(
                status: status, evidence: record, purchaseDate: transaction.purchaseDate,
                renewalCommitment: renewal?.renewalCommitment))
    }
}
