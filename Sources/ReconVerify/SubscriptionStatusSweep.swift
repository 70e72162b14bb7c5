import AppleData
import Foundation
import Logging
import ReconModel
import ReconStorage

/// What one Get All Subscription Statuses sweep did.
public struct SubscriptionStatusSummary: Sendable, Hashable, Codable {
    /// Subscriptions asked about, each once.
    public var asked = 0
    /// Statuses verified and stored as Apple's word at the run's as-of.
    public var recorded = 0
    /// Subscriptions Apple knows in neither environment (`OriginalTransactionIdNotFoundError`, 4040005), or whose
    /// answer does not list them: nothing stored, the stored evidence decides.
    public var notFound = 0
    /// Subscriptions Apple did not answer for within the retry budget, or refused to: the stored evidence decides.
    public var unreachable = 0
    /// Answers whose signed transaction or renewal info failed verification, or that speak of another subscription.
    public var rejected = 0
    /// Answers stating something that happened after the run's as-of (`--as-of` in the past): their signed
    /// transaction is kept as evidence, their status is not Apple's word at the as-of.
    public var afterAsOf = 0
    /// Signed transactions kept as new evidence (one the store's latest signed word already states is not kept
    /// again).
    public var newEvidence = 0

    public var line: String {
        var line =
            "subscription statuses: \(asked) asked, \(recorded) recorded, \(notFound) unknown to Apple, "
            + "\(unreachable) unreachable, \(rejected) rejected"
        if afterAsOf > 0 { line += ", \(afterAsOf) about a moment after the as-of" }
        if unreachable + rejected > 0 { line += " (stored evidence decides for those)" }
        return line
    }
}

/// Asks Apple for the status of every subscription an entitlement may hold at the run's as-of (CONTRACT §3
/// subscriptions), once per run, and keeps each verified answer.
///
/// A subscription is asked about when a Production entitlement of an auto-renewable product (or of a product the
/// catalog does not know) names it and may be active on either side at the as-of: the backend's `expires_at` is
/// later than the as-of less ``lookbackMillis`` (a renewal the backend never heard of must still be found), or
/// Apple's stored word covers the as-of (a status active or in its grace period until after it, or in billing retry;
/// else the latest stored signed transaction's `expiresDate`). Get All Subscription Statuses
/// (https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses) answers with the
/// latest transaction of each of the customer's subscriptions; the one whose `originalTransactionId` is the one
/// asked about is used. Its `signedTransactionInfo` and `signedRenewalInfo` are verified like any JWS (chain to a
/// trusted root, bundle id); then the status is stored as learned at the as-of and the signed transaction as Server
/// API evidence. Apple unreachable, an unknown id, or a JWS that fails verification store no status: the stored
/// evidence decides, and the run goes on.
public struct SubscriptionStatusSweep: Sendable {
    public var client: AppStoreServerAPIClient
    /// Checks the two JWS: the verifier notifications are checked with (trusted roots, the app's bundle ids).
    public var verifier: SignedDataVerifier
    /// `--entitlement-lookback` in milliseconds.
    public var lookbackMillis: Int64
    /// The most requests in flight (`--concurrency`).
    public var concurrency: Int

    public init(client: AppStoreServerAPIClient, verifier: SignedDataVerifier, lookbackMillis: Int64, concurrency: Int)
    {
        self.client = client
        self.verifier = verifier
        self.lookbackMillis = lookbackMillis
        self.concurrency = max(1, concurrency)
    }

    /// Asks about every subscription that may be active at `run`'s as-of, at most ``concurrency`` at once, and keeps
    /// each answer as it comes.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read or written; never for Apple's answers.
    package func run(store: any VerificationStore, in run: RunContext, logger: Logger) async throws
        -> SubscriptionStatusSummary
    {
        let asOf = run.asOf ?? run.appleNow()
        let ids = try subscriptionsToAsk(store: store, asOf: asOf)
        var summary = SubscriptionStatusSummary()
        summary.asked = ids.count
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var next = 0
            func addNext() {
                guard next < ids.count else { return }
                let id = ids[next]
                next += 1
                group.addTask { await self.ask(id) }
            }
            for _ in 0..<concurrency { addNext() }
            while let outcome = try await group.next() {
                try keep(outcome, store: store, run: run, asOf: asOf, logger: logger, into: &summary)
                addNext()
            }
        }
        return summary
    }

    /// The original transaction ids to ask about at `asOf`, each once, in id order.
    package func subscriptionsToAsk(store: any VerificationStore, asOf: Int64) throws -> [String] {
        let catalog = try store.ledger.catalog()
        var statuses: [String: SubscriptionStatus] = [:]
        for status in try store.entitlements.subscriptionStatuses(learnedBy: asOf) where status.environment.isProduction
        {
            statuses[status.originalTransactionID] = status
        }
        var ids: [String] = []
        var asked: Set<String> = []
        var appleOpen: [String: Bool] = [:]
        for entitlement in try store.entitlements.entitlements() where entitlement.environment.isProduction {
            let id = entitlement.originalTransactionID
            guard !asked.contains(id) else { continue }
            if let type = catalog[entitlement.productID]?.first?.type, type != .autoRenewable { continue }
            var ask = entitlement.expiresAt > asOf - lookbackMillis
            if !ask {
                if appleOpen[id] == nil {
                    appleOpen[id] =
                        try Self.covers(statuses[id], asOf: asOf)
                        || Self.covers(store.entitlements.evidence(originalTransactionID: id), asOf: asOf)
                }
                ask = appleOpen[id] ?? false
            }
            if ask {
                asked.insert(id)
                ids.append(id)
            }
        }
        return ids
    }

    /// Whether a stored status may still give access at `asOf`: active or in a grace period until after it, or in
    /// billing retry (until Apple says otherwise: the next answer replaces it).
    package static func covers(_ status: SubscriptionStatus?, asOf: Int64) -> Bool {
        guard let status else { return false }
        switch status.status {
        case .billingRetry: return true
        case .active: return (status.expiresDate ?? .min) > asOf
        case .billingGracePeriod: return max(status.gracePeriodExpiresDate ?? .min, status.expiresDate ?? .min) > asOf
        case .expired, .revoked: return false
        }
    }

    /// Whether the latest period the stored signed evidence knows by `asOf` runs past it.
    package static func covers(_ evidence: [EvidenceRecord], asOf: Int64) -> Bool {
        let periods = evidence.filter { record in
            record.signature != .invalid && record.signature != .untrusted && record.entry.isUpgraded != true
                && (record.learnedAt ?? .min) <= asOf && (record.entry.purchaseDate ?? .min) <= asOf
                && record.entry.expiresDate != nil
        }
        guard let latest = periods.max(by: { ($0.entry.expiresDate ?? 0) < ($1.entry.expiresDate ?? 0) }) else {
            return false
        }
        return (latest.entry.expiresDate ?? .min) > asOf
    }

    /// Keeps one answer: the signed transaction as evidence (unless the store's latest signed word states it
    /// already), the status as learned at `asOf` when it speaks of the as-of; counts and logs the rest.
    package func keep(
        _ outcome: Outcome, store: any VerificationStore, run: RunContext, asOf: Int64, logger: Logger,
        into summary: inout SubscriptionStatusSummary
    ) throws {
        switch outcome {
        case .answered(let answer):
            try keepEvidence(answer.evidence, store: store, run: run, into: &summary)
            var status = answer.status
            status.learnedAt = asOf
            if let commitment = answer.renewalCommitment, commitment.signedDate <= asOf {
                try store.appleWord.recordRenewalCommitment(commitment, learnedAt: asOf)
            }
            if Self.speaksOf(status, purchaseDate: answer.purchaseDate, asOf: asOf) {
                try store.entitlements.recordSubscriptionStatus(status)
                summary.recorded += 1
            } else {
                summary.afterAsOf += 1
                logger.info(
                    "Apple's subscription status speaks of a moment after the as-of; kept as evidence only",
                    metadata: ["original_transaction": "\(status.originalTransactionID)"])
            }
        case .rejected(let id, let reason, let evidence):
            summary.rejected += 1
            logger.warning(
                "Apple's subscription status did not verify; not used",
                metadata: ["original_transaction": "\(id)", "reason": "\(reason)"])
            if let evidence { try keepEvidence(evidence, store: store, run: run, into: &summary) }
        case .notFound(let id):
            summary.notFound += 1
            logger.info(
                "Apple knows no such subscription in either environment; the stored evidence decides",
                metadata: ["original_transaction": "\(id)"])
        case .unreachable(let id, let reason, let attempts):
            summary.unreachable += 1
            logger.warning(
                "Apple unreachable for a subscription status; the stored evidence decides",
                metadata: ["original_transaction": "\(id)", "reason": "\(reason)", "attempts": "\(attempts)"])
        }
    }

    /// Records a verified signed transaction as Server API evidence, unless the latest signed statement the store
    /// holds about that transaction says the same (only `signedDate` differs): a nightly sweep must not grow the
    /// store by one copy of every subscription a night.
    package func keepEvidence(
        _ record: VerificationRecord, store: any VerificationStore, run: RunContext,
        into summary: inout SubscriptionStatusSummary
    ) throws {
        guard let entry = record.entries.first, let original = entry.originalTransactionID else { return }
        let now = run.nowMillis()
        let learnedAt = run.learnedAt(now)
        let statements = try store.entitlements.evidence(originalTransactionID: original).filter { stored in
            stored.entry.transactionID == entry.transactionID && stored.signature == .verified
                && (stored.source == .serverAPI || stored.source == .notification)
                && (stored.learnedAt ?? .max) <= learnedAt
        }
        let latest = statements.max {
            ($0.entry.signedDate ?? .min, $0.recordedAt) < ($1.entry.signedDate ?? .min, $1.recordedAt)
        }
        if var known = latest?.entry {
            var fresh = entry
            known.signedDate = nil
            fresh.signedDate = nil
            if known == fresh { return }
        }
        try store.receipts.recordVerification(record, runID: run.runID, at: now, learnedAt: learnedAt)
        summary.newEvidence += 1
    }

    /// Whether Apple's answer, given now, speaks of `asOf`: nothing in it happened after the as-of (no purchase, no
    /// revocation, and no end of a period or grace period that an expired, billing-retry or grace-period status
    /// rests on).
    package static func speaksOf(_ status: SubscriptionStatus, purchaseDate: Int64?, asOf: Int64) -> Bool {
        if let purchased = purchaseDate, purchased > asOf { return false }
        if let revoked = status.revocationDate, revoked > asOf { return false }
        switch status.status {
        case .expired, .billingRetry:
            return (status.expiresDate ?? .min) <= asOf && (status.gracePeriodExpiresDate ?? .min) <= asOf
        case .billingGracePeriod:
            return (status.expiresDate ?? .min) <= asOf
        case .active, .revoked:
            return true
        }
    }
}
