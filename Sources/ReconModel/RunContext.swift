/// The run a stage works in: its id, its "now" and the one clock, passed to every stage as one value.
///
/// What a run learns (a verification, a notification) is learned as of the run's as-of, so the run's own reports
/// include it and a report for an earlier as-of does not; each store write takes that time explicitly
/// (``learnedAt(_:)``).
public struct RunContext: Sendable {
    /// The run's id in the store; nil for work outside a recorded run (`import`).
    public var runID: Int64?
    /// "Now" for grace periods and reports: `--as-of`, or the run's start; nil outside a recorded run.
    public var asOf: Int64?
    /// `--as-of` as given; nil: the clock.
    public var givenAsOf: Int64?
    /// The one clock: store timestamps, the run record, retries.
    public var clock: any ReconClock

    /// A recorded run `runID` at `asOf` (`givenAsOf` when given, else the run's start).
    public init(runID: Int64?, asOf: Int64?, givenAsOf: Int64?, clock: any ReconClock) {
        self.runID = runID
        self.asOf = asOf
        self.givenAsOf = givenAsOf
        self.clock = clock
    }

    /// Work outside a recorded run (`import`): learned when it happens, by the clock.
    public static func unrecorded(clock: any ReconClock) -> RunContext {
        RunContext(runID: nil, asOf: nil, givenAsOf: nil, clock: clock)
    }

    /// Epoch milliseconds now, by the clock.
    public func nowMillis() -> Int64 { clock.nowMillis() }

    /// When something recorded at `time` counts as learned: never later than the run's as-of.
    public func learnedAt(_ time: Int64) -> Int64 { asOf.map { min(time, $0) } ?? time }

    /// "Now" on Apple's side (the end of a notification-history window): `--as-of` when given, else the clock.
    public func appleNow() -> Int64 { givenAsOf ?? clock.nowMillis() }
}
