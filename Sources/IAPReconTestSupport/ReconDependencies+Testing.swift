import Foundation
import IAPRecon
import Logging

/// The composition root as the tests build it, shared by every test target.
extension ReconConfig {
    /// The composition root for this configuration, as a command builds it: "now" pinned at
    /// `millis` (nil: the system clock), logs discarded, Apple played by `transport` when given;
    /// the store created when absent unless `opening` is ``ReconStore/Opening/existing``.
    public func dependencies(
        at millis: Int64? = nil, transport: (any HTTPTransport)? = nil,
        opening: ReconStore.Opening = .createIfAbsent
    ) throws -> ReconDependencies {
        try ReconDependencies(
            config: self, clock: millis.map { ManualClock(millis: $0) as any ReconClock } ?? SystemClock(),
            logger: .quiet, transport: transport,
            opening: opening)
    }
}
