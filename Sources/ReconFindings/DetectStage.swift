import AppleData
import Foundation
import ReconModel
import ReconStorage

/// The detection stage: streams the store's transaction groups through the detectors (and any other consumer,
/// such as revenue), then the original-id groups and the receipts; ``DetectionEngine`` sequences it, as `report` and
/// `run` call it.
///
/// Memory: a few batches of groups; findings go to the caller as they are found.
public struct DetectStage {
    public var context: DetectionContext
    public var detectors: DetectorSet

    public init(context: DetectionContext, detectors: DetectorSet = .all) {
        self.context = context
        self.detectors = detectors
    }

    /// The original-transaction groups `groups` reads, each with its findings and the moment judging it again could
    /// next give another outcome (``OriginalTransactionGroup/nextChange(in:)``).
    public func judgeOriginalGroups(
        _ groups: ((OriginalTransactionGroup) throws -> Void) throws -> Void,
        each: (String, [Finding], Int64?) throws -> Void
    ) throws {
        try withoutActuallyEscaping(each) { each in
            try groups { group in
                var collector = FindingCollector()
                detectors.inspect(group.asOf(context.asOf), in: context, into: &collector)
                try each(group.originalTransactionID, collector.reported, group.nextChange(in: context))
            }
        }
    }

    /// The receipts, judged whole every time.
    package func judgeReceipts(_ receipts: any ReceiptRepository, found: (Finding) throws -> Void) throws {
        try receipts.forEachReceiptCase(learnedBy: context.asOf) { receiptCase in
            var receiptCase = receiptCase
            receiptCase.records = receiptCase.records.compactMap { $0.asOf(context.asOf) }
            var collector = FindingCollector()
            detectors.inspect(receiptCase, in: context, into: &collector)
            for finding in collector.reported { try found(finding) }
        }
    }

    /// Groups handed to the detecting thread at a time.
    package static let batchSize = 256

    /// One transaction as judged: what `alongside` made of it (nil when nothing of it had happened by the as-of),
    /// its findings in the order found, and when judging it again could next give another outcome
    /// (``TransactionGroup/nextChange(in:)``).
    public struct Judged<Extra: Sendable>: Sendable {
        public var transactionID: String
        /// The original transaction id its results are kept under (``TransactionGroup/originalTransactionID``).
        public var originalTransactionID: String
        public var made: Extra?
        public var findings: [Finding]
        public var nextChange: Int64?
    }

    /// The transaction groups `groups` reads: read here, judged on a second thread, `each` here, in order.
    public func judgeTransactions<Extra: Sendable>(
        _ groups: ((TransactionGroup) throws -> Void) throws -> Void,
        alongside: @escaping @Sendable (TransactionFacts) -> Extra, each: (Judged<Extra>) throws -> Void
    ) throws {
        let batches = OrderedChannel<[TransactionGroup]>(capacity: 4)
        // The groups come back with what was made of them, so their rows are freed by the thread
        // that allocated them: freeing another thread's memory contends for the allocator's lock.
        let made = OrderedChannel<(judged: [Judged<Extra>], groups: [TransactionGroup])>()
        let (context, detectors) = (context, detectors)
        let worker = Thread {
            while let batch = batches.receive() {
                var done: [Judged<Extra>] = []
                done.reserveCapacity(batch.count)
                for whole in batch {
                    let group = whole.asOf(context.asOf)
                    guard !group.records.isEmpty || !group.evidence.isEmpty else {
                        // Nothing of it yet: judged once its first time comes.
                        done.append(
                            Judged(
                                transactionID: whole.transactionID,
                                originalTransactionID: whole.originalTransactionID, made: nil, findings: [],
                                nextChange: whole.nextChange(in: context)))
                        continue
                    }
                    var collector = FindingCollector()
                    let groupFacts = TransactionFacts(group, in: context)
                    detectors.inspect(groupFacts, into: &collector)
                    done.append(
                        Judged(
                            transactionID: whole.transactionID,
                            originalTransactionID: whole.originalTransactionID, made: alongside(groupFacts),
                            findings: collector.reported, nextChange: whole.nextChange(in: context)))
                }
                made.send((done, batch))
            }
            // The last thing the worker does: once `made` ends, it is done.
            made.close()
        }
        worker.start()
        // However this thread leaves, the worker is stopped and waited for.
        defer {
            batches.close()
            while made.receive() != nil {}
        }
        // `each` runs on this thread only, between reads: never while another call of it is under way.
        try withoutActuallyEscaping(each) { each in
            func use(_ ready: (judged: [Judged<Extra>], groups: [TransactionGroup])) throws {
                // By index: each result is lent to `each` where it lies, not copied out (a copy retains its parts).
                for index in ready.judged.indices { try each(ready.judged[index]) }
            }
            var batch: [TransactionGroup] = []
            batch.reserveCapacity(Self.batchSize)
            try groups { group in
                batch.append(group)
                guard batch.count == Self.batchSize else { return }
                batches.send(batch)
                batch.removeAll(keepingCapacity: true)
                while let ready = made.poll() { try use(ready) }
            }
            if !batch.isEmpty { batches.send(batch) }
            batches.close()
            while let ready = made.receive() { try use(ready) }
        }
    }
}
