import IAPRecon

/// Apple's fiscal months, the periods of its Financial Reports and payments, for Apple's fiscal years
/// 2026 and 2027: a constant table, never computed from calendar months.
///
/// Apple publishes the calendar in App Store Connect (Payments and Financial Reports, "Fiscal
/// Calendar"). Each month runs Sunday to Saturday; each quarter has a five-week month then two
/// four-week months (5-4-4); the year starts the Sunday after the last Saturday of September, so
/// fiscal October 2026 is 2026-09-27 to 2026-10-31 and fiscal November 2026 is 2026-11-01 to
/// 2026-11-28. Both years here have 52 weeks. Apple adds a 53rd week to some years where it
/// chooses, so extend the table from Apple's published calendar, not by rule.
public enum AppleFiscalCalendar {
    /// First and last day of each fiscal month (`YYYY-MM-DD`), ascending; the comment names the month.
    static let table: [(start: String, end: String)] = [
        ("2025-09-28", "2025-11-01"),  // October 2025
        ("2025-11-02", "2025-11-29"),  // November 2025
        ("2025-11-30", "2025-12-27"),  // December 2025
        ("2025-12-28", "2026-01-31"),  // January 2026
        ("2026-02-01", "2026-02-28"),  // February 2026
        ("2026-03-01", "2026-03-28"),  // March 2026
        ("2026-03-29", "2026-05-02"),  // April 2026
        ("2026-05-03", "2026-05-30"),  // May 2026
        ("2026-05-31", "2026-06-27"),  // June 2026
        ("2026-06-28", "2026-08-01"),  // July 2026
        ("2026-08-02", "2026-08-29"),  // August 2026
        ("2026-08-30", "2026-09-26"),  // September 2026
        ("2026-09-27", "2026-10-31"),  // October 2026
        ("2026-11-01", "2026-11-28"),  // November 2026
        ("2026-11-29", "2026-12-26"),  // December 2026
        ("2026-12-27", "2027-01-30"),  // January 2027
        ("2027-01-31", "2027-02-27"),  // February 2027
        ("2027-02-28", "2027-03-27"),  // March 2027
        ("2027-03-28", "2027-05-01"),  // April 2027
        ("2027-05-02", "2027-05-29"),  // May 2027
        ("2027-05-30", "2027-06-26"),  // June 2027
        ("2027-06-27", "2027-07-31"),  // July 2027
        ("2027-08-01", "2027-08-28"),  // August 2027
        ("2027-08-29", "2027-09-25"),  // September 2027
    ]

    /// The fiscal months of ``table`` as periods (days since 1970-01-01), ascending.
    public static let periods: [FiscalPeriod] = table.compactMap { entry in
        guard let start = day(entry.start), let end = day(entry.end) else { return nil }
        return FiscalPeriod(start: start, end: end)
    }

    /// The fiscal month holding `day` (days since 1970-01-01), if the table covers it.
    public static func period(containing day: Int) -> FiscalPeriod? {
        periods.first { $0.contains(day) }
    }

    /// The latest fiscal month that ended before `day`: the last one whose reports Apple can have
    /// published by then.
    public static func lastPeriod(endedBefore day: Int) -> FiscalPeriod? {
        periods.last { $0.end < day }
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` date.
    static func day(_ text: String) -> Int? {
        Timestamp.parse(text + "T00:00:00Z").map { Int($0 / 86_400_000) }
    }
}
