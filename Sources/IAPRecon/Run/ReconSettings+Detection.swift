/// The composition root's side of detection: the validated settings become a ``DetectionContext``.
extension ReconSettings {
    /// The detection thresholds at `asOf` with `catalog`.
    public func detectionContext(asOf: Int64, catalog: [String: [CatalogProduct]]) -> DetectionContext {
        var context = DetectionContext(
            asOf: asOf, deliveryGraceMillis: deliveryGrace.inMilliseconds,
            finishGraceMillis: finishGrace.inMilliseconds, pendingLimitMillis: pendingLimit.inMilliseconds,
            bundleIDs: Set(bundleIDs), catalog: catalog)
        context.ledgerStart = ledgerStart
        return context
    }
}
