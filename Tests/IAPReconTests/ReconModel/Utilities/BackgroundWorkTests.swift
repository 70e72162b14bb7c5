import Foundation
import Testing

@testable import ReconModel

/// Work on a thread of its own (the schedule written beside the workbook): it runs while the caller goes on, and
/// joining gives its value or its error, as often as asked.
@Suite struct BackgroundWorkTests {
    struct Refused: Error, Equatable {}

    @Test func theWorkRunsWhileTheCallerGoesOn() throws {
        let callerWentOn = DispatchSemaphore(value: 0)
        // The work waits for a signal the caller gives only after starting it: run on the caller's thread, it would
        // wait out its 10 seconds and say false.
        let work = BackgroundWork { callerWentOn.wait(timeout: .now() + 10) == .success }
        callerWentOn.signal()
        #expect(try work.join())
    }

    @Test func joiningGivesTheValueEveryTime() throws {
        let work = BackgroundWork { (1...1_000).reduce(0, +) }
        #expect(try work.join() == 500_500)
        #expect(try work.join() == 500_500)
    }

    @Test func joiningRethrowsTheWorksError() {
        let work = BackgroundWork { () throws -> Int in throw Refused() }
        #expect(throws: Refused()) { try work.join() }
        #expect(throws: Refused()) { try work.join() }
    }
}
