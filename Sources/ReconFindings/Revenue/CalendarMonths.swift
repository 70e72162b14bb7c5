import Foundation
import ReconModel

/// Calendar months in the report's time zone (`--timezone`), as numbers (`year × 12 + month − 1`), and the instant
/// each begins, remembered once asked.
public struct CalendarMonths {
    public let timeZone: TimeZone
    private var starts: [Int: Int64] = [:]
    private let calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The month an instant (epoch ms) falls in, in the time zone.
    public func month(of millis: Int64) -> Int {
        let (day, _) = Timestamp.dayAndSecond(millis, in: timeZone)
        let (year, month, _) = Timestamp.civil(fromDays: day)
        return year * 12 + month - 1
    }

    /// The first instant of `month` in the time zone (local midnight of its first day, or the first instant after
    /// it that exists).
    public mutating func start(of month: Int) -> Int64 {
        if let known = starts[month] { return known }
        let year = Int(Timestamp.floorDiv(Int64(month), 12))
        let components = DateComponents(year: year, month: month - year * 12 + 1, day: 1)
        let start: Int64
        if let date = calendar.date(from: components) {
            start = Int64((date.timeIntervalSince1970 * 1000).rounded())
        } else {
            let days = Timestamp.daysFromCivil(year: year, month: month - year * 12 + 1, day: 1)
            start = Int64(days) * 86_400_000
        }
        starts[month] = start
        return start
    }

    /// `YYYY-MM`.
    public static func text(_ month: Int) -> String {
        let year = Int(Timestamp.floorDiv(Int64(month), 12))
        let number = month - year * 12 + 1
        return String(format: "%04d-%02d", year, number)
    }
}
