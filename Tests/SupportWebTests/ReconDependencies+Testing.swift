import Foundation
import IAPRecon
import Logging

extension ReconConfig {
    /// The composition root for this configuration, as a command builds it: "now" pinned at
    /// `millis` (nil: the system clock), logs discarded, Apple played by `transport` when given.
    func dependencies(
        at millis: Int64? = nil, transport: (any HTTPTransport)? = nil,
        opening: ReconStore.Opening = .createIfAbsent
    ) throws -> ReconDependencies {
        try ReconDependencies(
            config: self, clock: millis.map { ManualClock(millis: $0) as any ReconClock } ?? SystemClock(),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, transport: transport, opening: opening)
    }
}
