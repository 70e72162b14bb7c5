import Foundation
import Testing

@testable import ReconModel

/// A catalog period's end (CONTRACT §5.1) is the calendar's.
///
/// The same wall-clock time so many calendar months later in `--timezone`, the last day of a shorter month. Worked out from the zone's offsets away from a change of offset, it is exactly
/// what the calendar says, at any instant, month end and millisecond.
@Suite struct ServicePeriodTests {
    static func calendarEnd(_ start: Int64, plusMonths months: Int, in zone: TimeZone) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: TimeInterval(start) / 1000)
        return calendar.date(byAdding: .month, value: months, to: date).map {
            Int64(($0.timeIntervalSince1970 * 1000).rounded())
        }
    }

    @Test(arguments: ZoneOffsetsTests.zones) func theEndIsTheCalendarsAtAnyInstant(_ identifier: String) {
        let zone = ZoneOffsetsTests.zone(identifier)
        let table = ZoneOffsets.of(zone)
        var instants = ZoneOffsetsTests.Instants()
        var starts: [Int64] = (0..<3_000).map { _ in instants.next(in: 1_577_836_800_000...1_893_456_000_000) }
        // The last days of every month of 2027 and 2028 (a leap February), late at night and just after midnight.
        for month in 0..<24 {
            let year = 2027 + month / 12
            for day in 28...31 {
                let days = Timestamp.daysFromCivil(year: year, month: month % 12 + 1, day: day)
                for local: Int64 in [0, 1_001, 84_600_000, 86_399_999] {
                    let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(days) * 86_400)))
                    starts.append(Int64(days) * 86_400_000 + local - offset * 1000)
                }
            }
        }
        var fast = 0
        for start in starts {
            for period in ServicePeriod.allCases {
                guard let months = period.months else { continue }
                let expected = Self.calendarEnd(start, plusMonths: months, in: zone)
                #expect(period.end(from: start, in: zone) == expected, "\(identifier) \(start) \(period)")
                if let quick = ServicePeriod.sameWallClock(start, plusMonths: months, in: table) {
                    fast += 1
                    #expect(quick == expected, "\(identifier) \(start) \(period)")
                }
            }
        }
        #expect(fast > starts.count * 5 * 9 / 10, "\(identifier): the offsets answer far from a change")
    }

    @Test func nearAChangeTheCalendarAnswers() {
        let losAngeles = ZoneOffsetsTests.zone("America/Los_Angeles")
        let table = ZoneOffsets.of(losAngeles)
        // 2026-02-08T02:30:00-08:00 plus a month is 2026-03-08T02:30, a time that does not exist there.
        let start = Timestamp.parse("2026-02-08T02:30:00-08:00") ?? 0
        #expect(ServicePeriod.sameWallClock(start, plusMonths: 1, in: table) == nil)
        let expected = Self.calendarEnd(start, plusMonths: 1, in: losAngeles)
        #expect(ServicePeriod.oneMonth.end(from: start, in: losAngeles) == expected)
        // A quiet day: 2026-01-31T23:30:00-08:00 plus a month is the last day of February, same time.
        let quiet = Timestamp.parse("2026-01-31T23:30:00.250-08:00") ?? 0
        let end = Timestamp.parse("2026-02-28T23:30:00.250-08:00")
        #expect(ServicePeriod.sameWallClock(quiet, plusMonths: 1, in: table) == end)
    }
}
