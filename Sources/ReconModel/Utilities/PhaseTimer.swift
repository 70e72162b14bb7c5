import Logging

/// Logs, at debug level, what each phase of a stage cost (`--log-level debug`): its wall time, CPU time in user
/// space and in the kernel, the bytes it read and wrote through system calls and from or to the device, and the
/// process's peak resident set by its end (``ProcessUsage``): where a slow night's time, I/O and memory went,
/// without a profiler.
///
/// Wall times come from the run's one clock, so a test clock makes them zero; the rest is the process's own.
/// `scripts/bench_phases.py` turns the lines into a table.
package struct PhaseTimer {
    private let clock: any ReconClock
    private let logger: Logger
    private let stage: String
    private let usage: () -> ProcessUsage
    private var last: Int64
    private var lastUsage: ProcessUsage

    /// - Parameter usage: reads the process's usage (``ProcessUsage/current()``, or a fixed value in a test).
    package init(
        _ stage: String, clock: any ReconClock, logger: Logger,
        usage: @escaping () -> ProcessUsage = ProcessUsage.current
    ) {
        self.clock = clock
        self.logger = logger
        self.stage = stage
        self.usage = usage
        last = clock.nowMillis()
        lastUsage = logger.logLevel <= .debug ? usage() : ProcessUsage()
    }

    /// Logs what was spent since the previous phase ended (or since the stage began) as `phase`'s.
    package mutating func lap(_ phase: String, _ counts: @autoclosure () -> Logger.Metadata = [:]) {
        let now = clock.nowMillis()
        defer { last = now }
        // Reading /proc costs a system call and a parse: only when the line is logged.
        guard logger.logLevel <= .debug else { return }
        let current = usage()
        let spent = current.since(lastUsage)
        lastUsage = current
        var metadata = counts()
        metadata["stage"] = "\(stage)"
        metadata["phase"] = "\(phase)"
        metadata["millis"] = "\(now - last)"
        metadata["user_millis"] = "\(spent.userMicros / 1000)"
        metadata["sys_millis"] = "\(spent.systemMicros / 1000)"
        metadata["rchar"] = "\(spent.bytesRead)"
        metadata["wchar"] = "\(spent.bytesWritten)"
        metadata["read_bytes"] = "\(spent.deviceRead)"
        metadata["write_bytes"] = "\(spent.deviceWritten)"
        metadata["peak_rss_kb"] = "\(spent.peakResidentKilobytes)"
        logger.debug("phase done", metadata: metadata)
    }
}
