import AppleData
import Foundation
import Logging
import ReconModel
import ReconStorage

/// What one verify pass did.
public struct VerifyStageSummary: Sendable, Hashable, Codable {
    public var receiptsDecoded = 0
    public var verified = 0
    public var invalid = 0
    /// Apple could not be reached within the retry budget: still pending, tried again next run.
    public var unreachable = 0
    /// Nothing to verify with (no receipt and no Server API credentials): still pending.
    public var noEvidence = 0
    /// Receipts with no ledger row verified for the evidence they hold.
    public var orphanReceipts = 0
    public var requests = 0
    /// The Get Notification History sweep, when Server API credentials exist.
    public var sweep: SweepSummary?
    /// The subscription status sweep, when Server API credentials exist and entitlements are in the store.
    public var subscriptions: SubscriptionStatusSummary?

    public var line: String {
        "verify: \(verified) verified, \(invalid) invalid, \(unreachable) unreachable (still pending), \(noEvidence) without evidence (still pending), \(orphanReceipts) receipts without ledger rows checked, \(receiptsDecoded) receipts decoded"
    }
}

/// Re-verifies every pending transaction (CONTRACT §3) and every uploaded receipt no ledger row
/// names, persisting each result the moment it completes.
///
/// Per pending row, by its receipt's format: a StoreKit 2 JWS is settled by the offline check
/// (ES256, x5c chain to a trusted root, bundle); an app receipt or iOS 6 receipt by Apple's
/// `verifyReceipt`; a row without a usable receipt by Get Transaction Info when Server API
/// credentials exist. Apple unreachable leaves the row pending, never invalid.
public struct VerifyStage: Sendable {
    public var verifyReceipt: VerifyReceiptClient?
    public var serverAPI: AppStoreServerAPIClient?
    public var signedData: SignedDataVerifier
    public var bundleIDs: Set<String>
    public var concurrency: Int
    /// Sent as verifyReceipt's `exclude-old-transactions`.
    public var excludeOldTransactions = false
    /// Apple's later word (CONTRACT §3): swept after the pending rows when Server API credentials exist.
    public var notificationSweep: NotificationHistorySweep?
    /// Apple's status of each subscription an entitlement may hold (CONTRACT §3): asked after the notification sweep.
    public var subscriptionSweep: SubscriptionStatusSweep?

    public init(
        verifyReceipt: VerifyReceiptClient?, serverAPI: AppStoreServerAPIClient?, signedData: SignedDataVerifier,
        bundleIDs: Set<String>, concurrency: Int
    ) {
        self.verifyReceipt = verifyReceipt
        self.serverAPI = serverAPI
        self.signedData = signedData
        self.bundleIDs = bundleIDs
        self.concurrency = max(1, concurrency)
    }

    /// One unit of work: the pending rows of one receipt (or one row without a receipt).
    package struct WorkUnit: Sendable {
        package var receipt: UploadedReceipt?
        package var check: ReceiptCheck?
        package var rows: [LedgerTransaction]
    }

    /// Verifies everything pending in `run`; `progress(done, total)` after each job.
    package func run(
        store: any VerificationStore, in run: RunContext, logger: Logger,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> VerifyStageSummary {
        var summary = VerifyStageSummary()
        let orphans = try store.receipts.orphanReceiptCount()
        summary.orphanReceipts = orphans
        let total = try store.ledger.pendingJobCount() + orphans
        var done = 0
        var pendingPages = PendingPages()
        var orphanPages = OrphanPages()
        try await withThrowingTaskGroup(of: [VerificationRecord].self) { group in
            func addNext() throws -> Bool {
                guard let job = try pendingPages.next(store: store) ?? orphanPages.next(store: store) else {
                    return false
                }
                group.addTask { await self.verify(job) }
                return true
            }
            for _ in 0..<concurrency where try !addNext() { break }
            while let records = try await group.next() {
                let now = run.nowMillis()
                for record in records {
                    try store.receipts.recordVerification(
                        record, runID: run.runID, at: now, learnedAt: run.learnedAt(now))
                    summary.requests += record.source == .offline ? 0 : record.attempts
                    switch record.outcome {
                    case .valid: summary.verified += record.recordIDs.count
                    case .invalid: summary.invalid += record.recordIDs.count
                    case .unreachable: summary.unreachable += record.recordIDs.count
                    case .skipped: summary.noEvidence += record.recordIDs.count
                    }
                    if record.outcome == .unreachable {
                        logger.warning(
                            "Apple unreachable; left pending",
                            metadata: [
                                "receipt": "\(record.receiptID ?? "-")",
                                "transaction": "\(record.transactionID ?? "-")", "attempts": "\(record.attempts)",
                            ])
                    }
                }
                done += 1
                progress?(done, total)
                _ = try addNext()
            }
        }
        if let notificationSweep {
            // Refunds, reversals, revocations and renewals Apple reported since the last sweep.
            summary.sweep = try await notificationSweep.run(store: store, in: run, logger: logger)
        }
        if let subscriptionSweep, try store.entitlements.hasEntitlements() {
            summary.subscriptions = try await subscriptionSweep.run(store: store, in: run, logger: logger)
        }
        return summary
    }

    /// The summary's lines: the verify line, then the sweeps' when there were any.
    public static func lines(_ summary: VerifyStageSummary) -> [String] {
        [summary.line] + (summary.sweep.map { [$0.line] } ?? []) + (summary.subscriptions.map { [$0.line] } ?? [])
    }

    /// Receipts no ledger row names, fetched a page at a time as the verification reaches them.
    package struct OrphanPages {
        package static let pageSize = 1_000
        private var page: [WorkUnit] = []
        private var index = 0
        private var cursor: String?
        private var exhausted = false

        package mutating func next(store: any VerificationStore) throws -> WorkUnit? {
            if index == page.count {
                guard !exhausted else { return nil }
                let rows = try store.receipts.orphanReceiptsForVerification(after: cursor, limit: Self.pageSize)
                exhausted = rows.count < Self.pageSize
                guard let last = rows.last else { return nil }
                cursor = last.0.receiptID
                page = rows.map { WorkUnit(receipt: $0.0, check: $0.1, rows: []) }
                index = 0
            }
            defer { index += 1 }
            return page[index]
        }
    }

    /// Pending ledger rows, fetched a page at a time as the verification reaches them: first a page of receipts in
    /// the store, each with all its pending rows (one job per receipt), then the pending rows without a receipt in
    /// the store (one job per row).
    ///
    /// Rows settled meanwhile leave the pending set; the cursors only move forward, so a row left pending (Apple
    /// unreachable) is not asked twice in one run.
    package struct PendingPages {
        package static let pageSize = 1_000
        package let pageSize: Int
        private var page: [WorkUnit] = []
        private var index = 0
        private var receiptCursor: String?
        private var receiptsExhausted = false
        private var rowCursor: String?
        private var rowsExhausted = false

        package init(pageSize: Int = Self.pageSize) {
            self.pageSize = max(1, pageSize)
        }

        package mutating func next(store: any VerificationStore) throws -> WorkUnit? {
            while index == page.count {
                if !receiptsExhausted {
                    let groups = try store.ledger.pendingReceiptGroups(after: receiptCursor, limit: pageSize)
                    receiptsExhausted = groups.count < pageSize
                    if let last = groups.last { receiptCursor = last.receipt.receiptID }
                    page = groups.map { WorkUnit(receipt: $0.receipt, check: $0.check, rows: $0.rows) }
                } else if !rowsExhausted {
                    let rows = try store.ledger.pendingRowsWithoutReceipt(after: rowCursor, limit: pageSize)
                    rowsExhausted = rows.count < pageSize
                    if let last = rows.last { rowCursor = last.recordID }
                    page = rows.map { WorkUnit(receipt: nil, check: nil, rows: [$0]) }
                } else {
                    return nil
                }
                index = 0
            }
            defer { index += 1 }
            return page[index]
        }
    }

    /// Verifies one job; never throws: every outcome is a record.
    package func verify(_ job: WorkUnit) async -> [VerificationRecord] {
        guard let receipt = job.receipt else {
            guard let row = job.rows.first else { return [] }
            return [await verifyWithServerAPI(row)]
        }
        let settled: Settled
        switch receipt.format {
        case .signedTransaction: settled = settleSignedTransaction(job, receipt: receipt)
        case .appReceipt, .transactionReceipt: settled = await verifyWithVerifyReceipt(job, receipt: receipt)
        }
        return settled.records + (await settleUnlisted(settled.unlisted))
    }

    /// Records for rows, plus rows the evidence is valid for but does not list.
    package struct Settled {
        package var records: [VerificationRecord]
        package var unlisted: (rows: [LedgerTransaction], base: VerificationRecord, detail: String)?

        package init(
            _ records: [VerificationRecord],
            unlisted: (rows: [LedgerTransaction], base: VerificationRecord, detail: String)? = nil
        ) {
            self.records = records
            self.unlisted = unlisted
        }
    }

    /// Rows a valid answer does not list are not invalid: Apple leaves finished consumables out of the app receipt
    /// ("the in-app purchase receipt for a consumable product is added to the receipt when the purchase is made.
    ///
    /// It is kept in the receipt until your app finishes that transaction"), and a JWS may be for another purchase.
    /// Ask Get Transaction Info where credentials exist; otherwise leave them pending with that reason.
    package func settleUnlisted(
        _ unlisted: (rows: [LedgerTransaction], base: VerificationRecord, detail: String)?
    ) async -> [VerificationRecord] {
        guard let unlisted, !unlisted.rows.isEmpty else { return [] }
        guard serverAPI != nil else {
            var pending = unlisted.base
            pending.recordIDs = unlisted.rows.map(\.recordID)
            pending.transactionID = unlisted.rows.first?.transactionID
            pending.outcome = .skipped
            pending.detail = "\(unlisted.detail); left pending (no App Store Server API credentials to ask)"
            pending.entries = []
            return [pending]
        }
        var records: [VerificationRecord] = []
        for row in unlisted.rows { records.append(await verifyWithServerAPI(row)) }
        return records
    }

    /// A JWS checked offline settles its rows (CONTRACT §3): valid when the chain and signature
    /// verified and the bundle is the app's; rows naming another transaction are unlisted (``split``), not invalid.
    package func settleSignedTransaction(_ job: WorkUnit, receipt: UploadedReceipt) -> Settled {
        let ids = job.rows.map(\.recordID)
        guard let check = job.check else {
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, source: .offline, outcome: .skipped,
                    detail: "receipt not decoded yet")
            ])
        }
        if let failure = check.failure {
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, source: .offline, outcome: .invalid,
                    detail: "signed transaction rejected: \(failure.reason)", signature: check.signature)
            ])
        }
        if check.signature == .untrusted {
            // An Xcode / LocalTesting transaction, signed locally: a test purchase Apple never saw.
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, source: .offline, environment: check.environment,
                    bundleID: check.bundleID, outcome: .skipped,
                    detail: "a StoreKit testing transaction, not signed by Apple; left pending",
                    signature: check.signature)
            ])
        }
        if !bundleIDs.isEmpty, let bundle = check.bundleID, !bundleIDs.contains(bundle) {
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, source: .offline, environment: check.environment,
                    bundleID: bundle, outcome: .invalid, detail: "signed transaction belongs to bundle \(bundle)",
                    signature: check.signature)
            ])
        }
        return split(
            job.rows, known: Set(check.transactionIDs),
            base: VerificationRecord(
                recordIDs: [], receiptID: receipt.receiptID, source: .offline, environment: check.environment,
                bundleID: check.bundleID, outcome: .valid, detail: "JWS signature and chain verified offline",
                signature: check.signature),
            missingDetail: "the signed transaction is for another transaction id")
    }

    /// Rows whose transaction the evidence lists get `base`'s outcome; the others are unlisted
    /// (see ``settleUnlisted(_:)``), never invalid for that alone.
    package func split(_ rows: [LedgerTransaction], known: Set<String>, base: VerificationRecord, missingDetail: String)
        -> Settled
    {
        var found = base
        found.recordIDs = rows.filter { known.contains($0.transactionID) }.map(\.recordID)
        let missing = rows.filter { !known.contains($0.transactionID) }
        return Settled([found], unlisted: (missing, base, missingDetail))
    }

    package func verifyWithVerifyReceipt(_ job: WorkUnit, receipt: UploadedReceipt) async -> Settled {
        let ids = job.rows.map(\.recordID)
        guard let client = verifyReceipt else {
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, source: .verifyReceipt, outcome: .skipped,
                    detail: "verifyReceipt not configured")
            ])
        }
        let outcome = await client.verify(receiptData: receipt.data, excludeOldTransactions: excludeOldTransactions)
        switch outcome {
        case .unreachable(let reason, let statuses, let attempts):
            let seen = statuses.isEmpty ? "" : " (statuses seen: \(statuses.map(String.init).joined(separator: ", ")))"
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, transactionID: job.rows.first?.transactionID,
                    source: .verifyReceipt, appleStatus: statuses.last, outcome: .unreachable,
                    detail: "Apple unreachable: \(reason)\(seen)", attempts: attempts)
            ])
        case .httpFailure(let status, let endpoint, _, let attempts):
            return Settled([
                VerificationRecord(
                    recordIDs: ids, receiptID: receipt.receiptID, source: .verifyReceipt,
                    endpoint: endpoint.absoluteString,
                    httpStatus: status, outcome: .unreachable, detail: "HTTP \(status) from \(endpoint.absoluteString)",
                    attempts: attempts)
            ])
        case .answered(let answer):
            var base = VerificationRecord(
                recordIDs: ids, receiptID: receipt.receiptID, transactionID: job.rows.first?.transactionID,
                source: .verifyReceipt, endpoint: answer.endpoint.absoluteString, httpStatus: 200,
                appleStatus: answer.status, environment: answer.receiptEnvironment, bundleID: answer.bundleID,
                outcome: .valid, detail: nil, attempts: answer.attempts, entries: answer.allEntries)
            switch answer.verdict {
            case .valid:
                if !bundleIDs.isEmpty, let bundle = answer.bundleID, !bundleIDs.contains(bundle) {
                    base.outcome = .invalid
                    base.detail = "Apple says the receipt belongs to bundle \(bundle)"
                    return Settled([base])
                }
                base.detail = "Apple: status \(answer.status), \(answer.receiptEnvironment.rawValue)"
                return split(
                    job.rows, known: Set(answer.allEntries.map(\.transactionID)), base: base,
                    missingDetail: "Apple's answer for receipt \(receipt.receiptID) does not list this transaction")
            case .invalid:
                base.outcome = .invalid
                base.detail = "Apple: status \(answer.status) (receipt invalid)"
                return Settled([base])
            case .wrongEnvironment, .configurationProblem, .unresolved:
                base.outcome = .unreachable
                base.detail = "Apple: status \(answer.status) (\(answer.verdict.rawValue)); left pending"
                return Settled([base])
            }
        }
    }

    package func verifyWithServerAPI(_ row: LedgerTransaction) async -> VerificationRecord {
        guard let client = serverAPI else {
            return VerificationRecord(
                recordIDs: [row.recordID], transactionID: row.transactionID, source: .serverAPI, outcome: .skipped,
                detail: "no receipt and no App Store Server API credentials")
        }
        switch await client.transactionInfo(transactionID: row.transactionID) {
        case .unreachable(let reason, let attempts):
            return VerificationRecord(
                recordIDs: [row.recordID], transactionID: row.transactionID, source: .serverAPI, outcome: .unreachable,
                detail: "Apple unreachable: \(reason)", attempts: attempts)
        case .failure(let failure):
            let notFound = failure.apiError.map { [4_040_010, 4_040_005, 4_000_006].contains($0.rawValue) } ?? false
            return VerificationRecord(
                recordIDs: [row.recordID], transactionID: row.transactionID, source: .serverAPI,
                httpStatus: failure.httpStatus, appleStatus: failure.apiError.map { Int($0.rawValue) },
                environment: failure.environment, outcome: notFound ? .invalid : .unreachable,
                detail: notFound
                    ? "Apple has no such transaction in either environment"
                    : "Server API error: \(failure.message ?? "HTTP \(failure.httpStatus)")",
                attempts: failure.attempts)
        case .success(let answer):
            switch await signedData.verifyAndDecodeTransaction(answer.signedTransactionInfo) {
            case .valid(let payload):
                let evidence = payload.evidence
                var record = VerificationRecord(
                    recordIDs: [row.recordID], transactionID: row.transactionID, source: .serverAPI,
                    httpStatus: 200, environment: evidence.environment ?? answer.environment,
                    bundleID: evidence.bundleID,
                    outcome: .valid, detail: "Get Transaction Info: signed transaction verified",
                    attempts: answer.attempts,
                    entries: evidence.entries, signature: .verified)
                if !bundleIDs.isEmpty, let bundle = evidence.bundleID, !bundleIDs.contains(bundle) {
                    record.outcome = .invalid
                    record.detail = "Apple's transaction belongs to bundle \(bundle)"
                }
                return record
            case .invalid(let failure):
                return VerificationRecord(
                    recordIDs: [row.recordID], transactionID: row.transactionID, source: .serverAPI,
                    outcome: .unreachable,
                    detail: "Apple's signed answer did not verify: \(failure)", attempts: answer.attempts,
                    signature: .invalid)
            }
        }
    }
}
