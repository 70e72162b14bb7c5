import AppleData
import ReconModel

/// Apple's word as of 2026 (CONTRACT §7): what notifications without a transaction say, the app transaction ids of
/// the evidence, the 12-month commitments, the customers' consents and the answers sent to Apple's consumption requests.
///
/// ``SQLAppleWord`` keeps them in SQLite (or PostgreSQL, over the same connection).
package protocol AppleWordRepository {
    /// Keeps what a newly kept notification says beyond its transaction: its token, app transaction id, the reason of
    /// a consumption request, when the store learned it, and its renewal info's commitment.
    func recordNotificationWords(_ n: VerifiedNotification, learnedAt: Int64) throws(StoreError)

    /// Keeps a renewal info's word on a commitment (from a notification or Get All Subscription Statuses).
    func recordRenewalCommitment(_ r: RenewalCommitment, learnedAt: Int64) throws(StoreError)

    /// The kept notifications of ``AppleNotice/types`` signed and learned by `asOf`, by signed date then uuid.
    func notices(asOf: Int64) throws(StoreError) -> [AppleNotice]

    /// How many notifications of each type the store learned by `asOf` (run.json).
    func notificationCountsByType(asOf: Int64) throws(StoreError) -> [String: Int]

    /// The ledger's users whose Apple evidence carries `appTransactionID`, sorted.
    func users(appTransactionID: String) throws(StoreError) -> [String]

    /// The app transaction ids Apple's evidence states for any of `transactionIDs`, sorted.
    func appTransactionIDs(transactionIDs: [String]) throws(StoreError) -> [String]

    /// The ledger's users of an original transaction id, sorted.
    func users(originalTransactionID: String) throws(StoreError) -> [String]

    /// Every transaction Apple's evidence showed with `appTransactionID`, with its original transaction id.
    func transactions(appTransactionID: String) throws(StoreError) -> [(transactionID: String, originalID: String)]

    /// What the ledger and Apple's evidence say of one transaction.
    func ledgerFacts(transactionID: String) throws(StoreError) -> LedgerFacts

    /// Every commitment statement signed and learned by `asOf`, by original transaction, transaction, signed date.
    func commitmentStatements(asOf: Int64) throws(StoreError) -> [CommitmentStatement]

    /// The latest renewal commitment of each original transaction id learned by `asOf`.
    func renewalCommitments(asOf: Int64) throws(StoreError) -> [String: RenewalCommitment]

    /// Upserts one consent (one per user), in the caller's transaction.
    func upsertConsent(_ consent: Consent, file: String, line: Int) throws(StoreError)

    /// Every consent, by user; empty when none was ever given.
    func consents() throws(StoreError) -> [String: Consent]

    /// Every answer sent, by notification uuid.
    func consumptionAnswers() throws(StoreError) -> [String: ConsumptionAnswer]

    /// Notes that an answer is about to be sent: false when one was already sent for this request (never twice).
    func startConsumptionAnswer(_ answer: ConsumptionAnswer) throws(StoreError) -> Bool

    /// Records Apple's answer: accepted at `answeredAt`, or failed with `failure` (to be sent again next run).
    func finishConsumptionAnswer(
        notificationUUID: String, httpStatus: Int?, answeredAt: Int64?, failure: String?) throws(StoreError)
}

/// Apple's word as of 2026, in SQLite.
public struct SQLAppleWord: StoreTables {
    package let store: ReconStore
}

extension SQLAppleWord: AppleWordRepository {}

extension ReconStore {
    /// Apple's word as of 2026: tokens, app transactions, commitments, consents, consumption answers.
    package var appleWord: any AppleWordRepository { SQLAppleWord(store: self) }
}
