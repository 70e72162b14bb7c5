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
        guard let months else { return start + 7 * 86_400_000 }
        let calendar = Self.calendar(in: zone)
        let date = Date(timeIntervalSince1970: TimeInterval(start) / 1000)
        guard let end = calendar.date(byAdding: .month, value: months, to: date) else {
            return start + Int64(months) * 30 * 86_400_000
        }
        let millis = (end.timeIntervalSince1970 * 1000).rounded()
        return Int64(millis)
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
