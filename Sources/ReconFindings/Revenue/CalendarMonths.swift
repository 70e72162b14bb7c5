import Foundation
import ReconModel

/// Calendar months in the report's time zone (`--timezone`), as numbers (`year × 12 + month − 1`), and the instant
/// each begins, remembered once asked.
///
/// Every counted sale walks its months, so neither asks Foundation per sale: the month of an instant comes from the
/// zone's table of offsets (``ZoneOffsets``, `TimeZone` outside 1970...2099), and a month's start from the calendar
/// once, then from an array.
public struct CalendarMonths {
    public let timeZone: TimeZone
    /// The zone's offsets (``ZoneOffsets``).
    public let offsets: ZoneOffsets
    /// The starts of the months from ``firstCached`` on, asked so far (`Int64.min`: not yet).
    private var cached: [Int64] = []
    /// Months outside the array (before 1970 or after 2099).
    private var others: [Int: Int64] = [:]
    private let calendar: Calendar

    /// January 1970, the first month the array holds.
    static let firstCached = 1970 * 12
    /// The months the array holds: 1970...2099.
    static let cachedCount = 130 * 12

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        offsets = ZoneOffsets.of(timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The month an instant (epoch ms) falls in, in the time zone.
    public func month(of millis: Int64) -> Int {
        let (day, _) = offsets.dayAndSecond(millis)
        let (year, month, _) = Timestamp.civil(fromDays: day)
        return year * 12 + month - 1
    }

    /// The first instant of `month` in the time zone (local midnight of its first day, or the first instant after
    /// it that exists).
    public mutating func start(of month: Int) -> Int64 {
        let index = month - Self.firstCached
        guard index >= 0 && index < Self.cachedCount else {
            if let known = others[month] { return known }
            let start = calendarStart(of: month)
            others[month] = start
            return start
        }
        if cached.isEmpty { cached = Array(repeating: Int64.min, count: Self.cachedCount) }
        let known = cached[index]
        if known != Int64.min { return known }
        let start = calendarStart(of: month)
        cached[index] = start
        return start
    }

    /// The calendar's answer for ``start(of:)``.
    private func calendarStart(of month: Int) -> Int64 {
        let year = Int(Timestamp.floorDiv(Int64(month), 12))
        let components = DateComponents(year: year, month: month - year * 12 + 1, day: 1)
        if let date = calendar.date(from: components) {
            return Int64((date.timeIntervalSince1970 * 1000).rounded())
        }
        let days = Timestamp.daysFromCivil(year: year, month: month - year * 12 + 1, day: 1)
        return Int64(days) * 86_400_000
    }

    /// `YYYY-MM`.
    public static func text(_ month: Int) -> String {
        let year = Int(Timestamp.floorDiv(Int64(month), 12))
        let number = month - year * 12 + 1
        return String(format: "%04d-%02d", year, number)
    }
}
