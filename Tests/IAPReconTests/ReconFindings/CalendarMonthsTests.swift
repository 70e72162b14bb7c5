import Foundation
import Testing

@testable import ReconFindings
@testable import ReconModel

/// The calendar months of revenue recognition (CONTRACT §5.1) in `--timezone`: an instant's month from the zone's
/// offsets and a month's first instant from the calendar, remembered, are what `TimeZone` and `Calendar` say on
/// both sides of every month's start, in zones whose clocks change at 2:00, at midnight (so a month may start at
/// 1:00), by half an hour or at a quarter-hour offset, and before 1970 or after 2099.
@Suite struct CalendarMonthsTests {
    static func calendarStart(_ month: Int, in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let year = Int(Timestamp.floorDiv(Int64(month), 12))
        let date = calendar.date(from: DateComponents(year: year, month: month - year * 12 + 1, day: 1))
        return Int64(((date?.timeIntervalSince1970 ?? 0) * 1000).rounded())
    }

    /// The month as ``Timestamp`` gives it with `TimeZone`'s offset.
    static func foundationMonth(_ millis: Int64, in zone: TimeZone) -> Int {
        let (day, _) = Timestamp.dayAndSecond(millis, in: zone)
        let (year, month, _) = Timestamp.civil(fromDays: day)
        return year * 12 + month - 1
    }

    @Test(arguments: ZoneOffsetsTests.zones) func everyMonthStartsWhereTheCalendarSays(_ identifier: String) {
        let zone = ZoneOffsetsTests.zone(identifier)
        var months = CalendarMonths(timeZone: zone)
        let quiet = ["America/Los_Angeles", "Pacific/Chatham", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
        // 1960 ... 2029 and 2099 ... 2101: in the array and on both sides of it.
        for month in Array(1960 * 12..<2030 * 12) + Array(2099 * 12..<2102 * 12) {
            let start = months.start(of: month)
            #expect(start == Self.calendarStart(month, in: zone), "\(identifier) \(CalendarMonths.text(month))")
            #expect(months.start(of: month) == start, "asked again")
            for probe in [start - 3_600_001, start - 1, start, start + 1, start + 3_600_000, start + 86_400_000] {
                #expect(
                    months.month(of: probe) == Self.foundationMonth(probe, in: zone),
                    "\(identifier) \(CalendarMonths.text(month)) \(probe)")
            }
            if quiet.contains(identifier) {
                // Where no clock changes at a month's start, the month starts exactly there.
                #expect(months.month(of: start) == month && months.month(of: start - 1) == month - 1)
            }
        }
    }

    @Test func losAngelesAndChathamAtTheirChanges() {
        let losAngeles = CalendarMonths(timeZone: ZoneOffsetsTests.zone("America/Los_Angeles"))
        // 2026-10-31T23:59:59.999 PDT is October; a millisecond later it is November, still PDT.
        let november = Timestamp.parse("2026-11-01T00:00:00-07:00") ?? 0
        #expect(losAngeles.month(of: november - 1) == 2026 * 12 + 9)
        #expect(losAngeles.month(of: november) == 2026 * 12 + 10)
        // 2026-11-01T01:30 happens twice there (PDT, then PST): both are November; so is 2026-03-01 in PST.
        #expect(losAngeles.month(of: (Timestamp.parse("2026-11-01T01:30:00-08:00") ?? 0)) == 2026 * 12 + 10)
        #expect(losAngeles.month(of: (Timestamp.parse("2026-03-01T00:00:00-08:00") ?? 0) - 1) == 2026 * 12 + 1)
        // Chatham is UTC+13:45 in its summer: 2026-12-31T10:15:00Z is already 2027 there.
        let chatham = CalendarMonths(timeZone: ZoneOffsetsTests.zone("Pacific/Chatham"))
        let newYear = Timestamp.parse("2026-12-31T10:15:00Z") ?? 0
        #expect(chatham.month(of: newYear - 1) == 2026 * 12 + 11)
        #expect(chatham.month(of: newYear) == 2027 * 12)
    }
}
