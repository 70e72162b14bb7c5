import Logging

/// Logs, at debug level, how long each phase of a stage took (`--log-level debug`): where a slow
/// night's time went, without a profiler.
///
/// Durations come from the run's one clock, so a test clock makes them zero.
package struct PhaseTimer {
    private let clock: any ReconClock
    private let logger: Logger
    private let stage: String
    private var last: Int64

    package init(_ stage: String, clock: any ReconClock, logger: Logger) {
        self.clock = clock
        self.logger = logger
        self.stage = stage
        last = clock.nowMillis()
    }

    /// Logs the time since the previous phase ended (or since the stage began) as `phase`'s.
    package mutating func lap(_ phase: String, _ counts: @autoclosure () -> Logger.Metadata = [:]) {
        let now = clock.nowMillis()
        var metadata = counts()
        metadata["stage"] = "\(stage)"
        metadata["phase"] = "\(phase)"
        metadata["millis"] = "\(now - last)"
        logger.debug("phase done", metadata: metadata)
        last = now
    }
}
