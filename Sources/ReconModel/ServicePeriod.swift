import Foundation

/// The service period a purchase buys, as the catalog's `duration` names it (CONTRACT §1.3): the ISO 8601
/// durations App Store Connect offers for subscriptions (`P1W`, `P1M`, `P2M`, `P3M`, `P6M`, `P1Y`).
///
/// Apple's subscription durations are one week, one, two, three or six months, and one year
/// (https://developer.apple.com/help/app-store-connect/reference/in-app-purchases-and-subscriptions/auto-renewable-subscription-information).
public enum ServicePeriod: String, Sendable, Hashable, CaseIterable {
    case oneWeek = "P1W"
    case oneMonth = "P1M"
    case twoMonths = "P2M"
    case threeMonths = "P3M"
    case sixMonths = "P6M"
    case oneYear = "P1Y"

    /// Parses the catalog's text (case-insensitive, surrounding blanks ignored); nil when it is none of Apple's
    /// durations.
    public init?(iso text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespaces).uppercased())
    }

    /// The calendar months the period spans; nil for a week.
    public var months: Int? {
        switch self {
        case .oneWeek: return nil
        case .oneMonth: return 1
        case .twoMonths: return 2
        case .threeMonths: return 3
        case .sixMonths: return 6
        case .oneYear: return 12
        }
    }

    /// The end of a period that starts at `start` (epoch ms): seven days later, or the same wall-clock time
    /// `months` calendar months later in `zone` (the last day of a shorter month when the day does not exist there,
    /// as Apple renews a subscription bought on the 31st).
    public func end(from start: Int64, in zone: TimeZone) -> Int64 {
        end(from: start, in: ZoneOffsets.of(zone))
    }

    /// ``end(from:in:)`` in the zone of `offsets` (a sale's period asks with its report's, found once).
    public func end(from start: Int64, in offsets: ZoneOffsets) -> Int64 {
        guard let months else { return start + 7 * 86_400_000 }
        if let end = Self.sameWallClock(start, plusMonths: months, in: offsets) { return end }
        let calendar = Self.calendar(in: offsets.timeZone)
        let date = Date(timeIntervalSince1970: TimeInterval(start) / 1000)
        guard let end = calendar.date(byAdding: .month, value: months, to: date) else {
            return start + Int64(months) * 30 * 86_400_000
        }
        let millis = (end.timeIntervalSince1970 * 1000).rounded()
        return Int64(millis)
    }

    /// The end of `months` calendar months from `start` worked out from the zone's offsets, or nil: ask the calendar.
    ///
    /// The same wall-clock time in the zone (the last day of a shorter month), when no offset changes within two days
    /// of the start or of the end: there the wall-clock time is unambiguous and the calendar gives the same instant
    /// (a test compares them). Nil near a change or outside the table.
    static func sameWallClock(_ start: Int64, plusMonths months: Int, in offsets: ZoneOffsets) -> Int64? {
        let margin: Int64 = 2 * 86_400
        let second = Timestamp.floorDiv(start, 1000)
        guard let offset = offsets.steadyOffset(around: second, margin: margin) else { return nil }
        let local = second + offset
        let day = Timestamp.floorDiv(local, 86_400)
        let (year, month, dayOfMonth) = Timestamp.civil(fromDays: Int(day))
        let target = year * 12 + month - 1 + months
        let targetYear = Int(Timestamp.floorDiv(Int64(target), 12))
        let targetMonth = target - targetYear * 12 + 1
        let nextMonthFirst = Timestamp.daysFromCivil(
            year: targetMonth == 12 ? targetYear + 1 : targetYear, month: targetMonth == 12 ? 1 : targetMonth + 1,
            day: 1)
        let targetFirst = Timestamp.daysFromCivil(year: targetYear, month: targetMonth, day: 1)
        let targetDay = targetFirst + min(dayOfMonth, nextMonthFirst - targetFirst) - 1
        let endLocal = Int64(targetDay) * 86_400 + (local - day * 86_400)
        // Steady for two days around a first guess, so the offset there is the end's (offsets differ by less).
        guard let endOffset = offsets.steadyOffset(around: endLocal - offset, margin: margin) else { return nil }
        return (endLocal - endOffset) * 1000 + (start - second * 1000)
    }

    /// The Gregorian calendar in `zone`, made once per zone: every sale with a catalog duration asks for one, and
    /// making a calendar costs far more than the date arithmetic.
    private static func calendar(in zone: TimeZone) -> Calendar {
        calendarsLock.lock()
        defer { calendarsLock.unlock() }
        if let known = calendars[zone.identifier] { return known }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendars[zone.identifier] = calendar
        return calendar
    }

    private static let calendarsLock = NSLock()
    nonisolated(unsafe) private static var calendars: [String: Calendar] = [:]
}
