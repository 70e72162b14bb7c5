import Foundation

/// The detection stage: streams the store's transaction groups through the detectors (and any other consumer,
/// such as revenue), then the original-id groups and the receipts.
///
/// Memory: one group plus the findings.
public struct DetectStage {
    public var context: DetectionContext
    public var detectors: DetectorSet

    public init(context: DetectionContext, detectors: DetectorSet = .all) {
        self.context = context
        self.detectors = detectors
    }

    /// Runs detection over the whole store as of `context.asOf` (a cut-off: what happened later
    /// is left out, see ``TransactionGroup/asOf(_:)``); `each` sees every transaction's facts too
    /// (worked out once per group, shared with the detectors).
    public func run(store: ReconStore, each: (TransactionFacts) -> Void) throws -> [Finding] {
        var collector = FindingCollector()
        try store.forEachTransactionGroup { group in
            let group = group.asOf(context.asOf)
            guard !group.records.isEmpty || !group.evidence.isEmpty else { return }
            let facts = TransactionFacts(group, in: context)
            each(facts)
            detectors.inspect(facts, into: &collector)
        }
        try store.forEachOriginalTransactionGroup { group in
            detectors.inspect(group.asOf(context.asOf), in: context, into: &collector)
        }
        try store.forEachReceiptCase(learnedBy: context.asOf) { receiptCase in
            var receiptCase = receiptCase
            receiptCase.records = receiptCase.records.compactMap { $0.asOf(context.asOf) }
            detectors.inspect(receiptCase, in: context, into: &collector)
        }
        return collector.sorted
    }
}
