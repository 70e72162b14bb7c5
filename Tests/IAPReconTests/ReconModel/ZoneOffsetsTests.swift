import Foundation
import Testing

@testable import ReconModel

/// The table of a zone's offsets (``ZoneOffsets``) says what `TimeZone` says, at every change of offset and between
/// them, in zones with daylight saving at 2:00, at midnight, by half an hour, at quarter-hour offsets, and a zone
/// that skipped a day.
@Suite struct ZoneOffsetsTests {
    static let zones = [
        "America/Los_Angeles", "Pacific/Chatham", "Australia/Lord_Howe", "America/Santiago", "America/Havana",
        "Asia/Beirut", "Pacific/Apia", "Asia/Kolkata", "Europe/London", "America/St_Johns", "UTC",
    ]

    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier) ?? .current }

    static func foundation(_ second: Int64, in zone: TimeZone) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second))))
    }

    /// A fixed-seed SplitMix64, so the instants are the same on every run.
    struct Instants {
        var state: UInt64 = 0x2026_1129
        mutating func next(in range: ClosedRange<Int64>) -> Int64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Int64(z % UInt64(range.upperBound - range.lowerBound + 1))
        }
    }

    @Test(arguments: zones) func theOffsetIsTimeZonesAroundEveryChange(_ identifier: String) {
        let zone = Self.zone(identifier)
        let table = ZoneOffsets.of(zone)
        #expect(table.secondsFromGMT(atSecond: 0) != nil, "\(identifier): the table is used")
        var after = Date(timeIntervalSince1970: 0)
        var changes = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: after), next.timeIntervalSince1970 < 4.1e9 {
            let second = Int64(next.timeIntervalSince1970.rounded(.up))
            for probe in [second - 86_400, second - 3_601, second - 1, second, second + 1, second + 3_600] {
                let expected = Self.foundation(probe, in: zone)
                #expect(table.secondsFromGMT(atSecond: probe) == expected, "\(identifier) \(probe)")
            }
            changes += 1
            after = next
        }
        if identifier == "America/Los_Angeles" { #expect(changes > 200) }
    }

    @Test(arguments: zones) func theDayAndSecondAreTimestampsAtAnyInstant(_ identifier: String) {
        let zone = Self.zone(identifier)
        let table = ZoneOffsets.of(zone)
        var instants = Instants()
        // 2000 ... 2040, and both sides of the table's window (1960, 2101: `TimeZone` answers there).
        for _ in 0..<5_000 {
            let millis = instants.next(in: 946_684_800_000...2_208_988_800_000)
            #expect(table.dayAndSecond(millis) == Timestamp.dayAndSecond(millis, in: zone), "\(identifier) \(millis)")
        }
        for millis: Int64 in [-315_619_200_123, -1, 0, 4_102_444_799_999, 4_102_444_800_000, 4_133_980_800_500] {
            #expect(table.dayAndSecond(millis) == Timestamp.dayAndSecond(millis, in: zone), "\(identifier) \(millis)")
        }
        #expect(table.secondsFromGMT(atSecond: -1) == nil)
        #expect(table.secondsFromGMT(atSecond: ZoneOffsets.defaultWindowEnd) == nil)
    }

    @Test func anOffsetIsSteadyOnlyFarFromAChange() {
        let table = ZoneOffsets.of(Self.zone("America/Los_Angeles"))
        // 2026-03-08T10:00:00Z: 02:00 PST becomes 03:00 PDT.
        let change: Int64 = 1_772_964_000
        #expect(table.secondsFromGMT(atSecond: change - 1) == -8 * 3_600)
        #expect(table.secondsFromGMT(atSecond: change) == -7 * 3_600)
        #expect(table.steadyOffset(around: change - 86_400, margin: 86_400) == nil)
        #expect(table.steadyOffset(around: change - 86_401, margin: 86_400) == -8 * 3_600)
        #expect(table.steadyOffset(around: change + 86_400, margin: 86_400) == -7 * 3_600)
        #expect(table.steadyOffset(around: change + 86_399, margin: 86_400) == nil)
        #expect(table.steadyOffset(around: 100, margin: 86_400) == nil, "the window's start is an edge")
    }
}
