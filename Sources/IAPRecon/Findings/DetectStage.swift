import Foundation

/// The detection stage: streams the store's transaction groups through the detectors (and any other consumer,
/// such as revenue), then the original-id groups and the receipts.
///
/// Memory: a few batches of groups; findings go to the caller as they are found.
public struct DetectStage {
    public var context: DetectionContext
    public var detectors: DetectorSet

    public init(context: DetectionContext, detectors: DetectorSet = .all) {
        self.context = context
        self.detectors = detectors
    }

    /// Runs detection over the whole store as of `context.asOf` (a cut-off: what happened later
    /// is left out, see ``TransactionGroup/asOf(_:)``), handing every transaction's facts (worked
    /// out once per group, shared with the detectors) to `alongside`, and what it made of them to
    /// `each`, both in the store's order.
    ///
    /// Two threads share the transaction groups: this one reads them from the store and calls
    /// `each`; a second works out the facts, runs the detectors and calls `alongside`. Findings
    /// and both consumers come out as from one thread. The facts stay on the detecting thread (and
    /// are freed there).
    ///
    /// - Parameters:
    ///   - alongside: called on the detecting thread, for work that needs no store (revenue,
    ///     Apple's sales).
    ///   - each: called on this thread with what `alongside` returned, for work that reads or
    ///     writes the store.
    ///   - found: called on this thread with every finding, in the order found (the same finding may come twice:
    ///     the first counts).
    public func run<Extra: Sendable>(
        store: ReconStore, alongside: @escaping @Sendable (TransactionFacts) -> Extra,
        each: (Extra) throws -> Void, found: (Finding) throws -> Void
    ) throws {
        try transactionPass(store: store, alongside: alongside, each: each, found: found)
        try store.forEachOriginalTransactionGroup { group in
            var collector = FindingCollector()
            detectors.inspect(group.asOf(context.asOf), in: context, into: &collector)
            for finding in collector.reported { try found(finding) }
        }
        try store.forEachReceiptCase(learnedBy: context.asOf) { receiptCase in
            var receiptCase = receiptCase
            receiptCase.records = receiptCase.records.compactMap { $0.asOf(context.asOf) }
            var collector = FindingCollector()
            detectors.inspect(receiptCase, in: context, into: &collector)
            for finding in collector.reported { try found(finding) }
        }
    }

    /// Groups handed to the detecting thread at a time.
    static let batchSize = 256

    /// The transaction groups: read here, detected on a second thread, `each` here, in order.
    private func transactionPass<Extra: Sendable>(
        store: ReconStore, alongside: @escaping @Sendable (TransactionFacts) -> Extra,
        each: (Extra) throws -> Void, found: (Finding) throws -> Void
    ) throws {
        let groups = OrderedChannel<[TransactionGroup]>(capacity: 4)
        // The groups come back with what was made of them, so their rows are freed by the thread
        // that allocated them: freeing another thread's memory contends for the allocator's lock.
        let made = OrderedChannel<(made: [Extra], findings: [Finding], groups: [TransactionGroup])>()
        let (context, detectors) = (context, detectors)
        let worker = Thread {
            while let batch = groups.receive() {
                var done: [Extra] = []
                done.reserveCapacity(batch.count)
                var collector = FindingCollector()
                for group in batch {
                    let group = group.asOf(context.asOf)
                    guard !group.records.isEmpty || !group.evidence.isEmpty else { continue }
                    let groupFacts = TransactionFacts(group, in: context)
                    detectors.inspect(groupFacts, into: &collector)
                    done.append(alongside(groupFacts))
                }
                made.send((done, collector.reported, batch))
            }
            // The last thing the worker does: once `made` ends, it is done.
            made.close()
        }
        worker.start()
        // However this thread leaves, the worker is stopped and waited for.
        defer {
            groups.close()
            while made.receive() != nil {}
        }
        func use(_ ready: (made: [Extra], findings: [Finding], groups: [TransactionGroup])) throws {
            for item in ready.made { try each(item) }
            for finding in ready.findings { try found(finding) }
        }
        var batch: [TransactionGroup] = []
        batch.reserveCapacity(Self.batchSize)
        try store.forEachTransactionGroup { group in
            batch.append(group)
            guard batch.count == Self.batchSize else { return }
            groups.send(batch)
            batch.removeAll(keepingCapacity: true)
            while let ready = made.poll() { try use(ready) }
        }
        if !batch.isEmpty { groups.send(batch) }
        groups.close()
        while let ready = made.receive() { try use(ready) }
    }
}
