import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The one clock: a manual clock stands still until slept on, and the root's clock is the one
/// the Apple clients wait on.
@Suite struct ReconClockTests {
    @Test func aManualClockMovesOnlyWhenSleptOn() async throws {
        let clock = ManualClock(millis: 1_795_176_000_000)
        #expect(clock.nowMillis() == 1_795_176_000_000)
        #expect(clock.nowMillis() == 1_795_176_000_000)
        try await clock.sleep(for: .milliseconds(1_500))
        #expect(clock.nowMillis() == 1_795_176_001_500)
        #expect(clock.sleeps == [.milliseconds(1_500)])
    }

    @Test func theSystemClockIsNow() {
        #expect(abs(SystemClock().now().timeIntervalSinceNow) < 5)
    }
}
