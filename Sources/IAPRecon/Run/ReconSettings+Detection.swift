/// The composition root's side of detection: the validated settings become the engine's ``DetectionSettings``.
extension ReconSettings {
    /// What detection reads of these settings.
    public var detection: DetectionSettings {
        var settings = DetectionSettings(
            timeZone: timeZone, salesReportTimeZone: salesReportTimeZone, revenueFrom: revenueDays.from,
            revenueTo: revenueDays.to, deliveryGraceMillis: deliveryGrace.inMilliseconds,
            finishGraceMillis: finishGrace.inMilliseconds, pendingLimitMillis: pendingLimit.inMilliseconds,
            bundleIDs: config.bundleIDs, ledgerStart: ledgerStart,
            entitlementLookbackMillis: entitlementLookback.inMilliseconds,
            entitlementToleranceMillis: entitlementTolerance.inMilliseconds, fullReport: config.fullReport,
            incrementalLimitPercent: config.incrementalLimitPercent)
        settings.recognitionBasis = config.recognitionBasis
        return settings
    }

    /// The detection thresholds at `asOf` with `catalog`.
    public func detectionContext(asOf: Int64, catalog: [String: [CatalogProduct]]) -> DetectionContext {
        detection.context(asOf: asOf, catalog: catalog)
    }
}
