import Foundation

/// Parses CONTRACT §1 timestamps: ISO 8601 with an offset, or integer epoch milliseconds.
///
/// Hand-written over bytes: a million rows carry two million timestamps, and a formatter per
/// value would dominate the import.
public enum Timestamp {
    /// Epoch milliseconds for `text`, or nil when it is neither form.
    ///
    /// Accepted: `1763643900000`, `2026-11-20T13:05:00Z`, `2026-11-20T05:05:00-08:00`,
    /// `2026-11-20T13:05:00.123+0000`, `2026-11-20 13:05:00Z`, and what databases export:
    /// PostgreSQL's `2026-11-20 13:05:00.123456+00` and `-08`, `+05:30`, a blank before the zone,
    /// `UTC`. A time without an offset is rejected: it would be a guess.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    package static func parse(bytes buffer: UnsafeBufferPointer<UInt8>) -> Int64? {
        var utf8 = buffer[...]
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8.removeLast() }
        var start = 0
        while start < utf8.count, utf8[utf8.startIndex + start] == 0x20 || utf8[utf8.startIndex + start] == 0x09 {
            start += 1
        }
        let bytes = utf8[(utf8.startIndex + start)...]
        guard !bytes.isEmpty else { return nil }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            || (bytes.first == 0x2D && bytes.count > 1
                && bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }))
        {
            guard bytes.count <= 16 else { return nil }
            var value: Int64 = 0
            for byte in bytes where byte != 0x2D { value = value * 10 + Int64(byte - 0x30) }
            return bytes.first == 0x2D ? -value : value
        }
        return parseISO(UnsafeBufferPointer(rebasing: bytes))
    }

    private static func parseISO(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                let c = b[k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2)
        else { return nil }
        guard i < b.count, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20 else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2) else { return nil }
        var second = 0
        if expect(0x3A) {
            guard let s = digits(2) else { return nil }
            second = s
        }
        var millis = 0
        if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 100
            var any = false
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                millis += Int(b[i] - 0x30) * scale
                scale /= 10
                any = true
                i += 1
            }
            guard any else { return nil }
        }
        // One blank may stand before the zone (`12:26:46 +00:00`, `12:26:46 UTC`).
        if i + 1 < b.count, b[i] == 0x20 { i += 1 }
        guard i < b.count else { return nil }  // no offset: ambiguous
        var offsetSeconds = 0
        if b[i] == 0x5A || b[i] == 0x7A {
            i += 1
        } else if b[i] == 0x2B || b[i] == 0x2D {
            let sign = b[i] == 0x2D ? -1 : 1
            i += 1
            // `+00` and `-08` as PostgreSQL writes them, `+0530`, `+05:30`, and `+00:53:28`.
            guard let oh = digits(2), oh <= 23 else { return nil }
            var om = 0
            var os = 0
            if i < b.count {
                let colon = expect(0x3A)
                guard let m = digits(2), m <= 59 else { return nil }
                om = m
                if colon, expect(0x3A) {
                    guard let s = digits(2), s <= 59 else { return nil }
                    os = s
                }
            }
            offsetSeconds = sign * (oh * 3600 + om * 60 + os)
        } else if b.count - i == 3, Self.isUTC(b[i], b[i + 1], b[i + 2]) {
            i += 3
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds =
            Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
            - Int64(offsetSeconds)
        return seconds * 1000 + Int64(millis)
    }

    /// Whether three letters are `UTC` or `GMT` (any case), a zone some exports write out.
    private static func isUTC(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        let (a, b, c) = (a | 0x20, b | 0x20, c | 0x20)
        return (a == 0x75 && b == 0x74 && c == 0x63) || (a == 0x67 && b == 0x6D && c == 0x74)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01.
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, for reports and logs.
    public static func iso(_ millis: Int64) -> String {
        // Every row of the schedule and of the findings carries one or two: digits by hand (years 0...9999).
        let digits = String(unsafeUninitializedCapacity: isoMaxLength) { writeISO(millis, into: $0) ?? 0 }
        if !digits.isEmpty { return digits }
        let c = components(millis)
        let ms = Int(millis - floorDiv(millis, 1000) * 1000)
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        var text = "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):"
        text += "\(pad(c.minute, 2)):\(pad(c.second, 2))"
        if ms != 0 { text += "." + pad(ms, 3) }
        return text + "Z"
    }

    /// The longest instant ``iso(_:)`` writes digit by digit (`yyyy-MM-ddTHH:mm:ss.SSSZ`).
    package static let isoMaxLength = 24

    /// Writes ``iso(_:)``'s text into `buffer` (``isoMaxLength`` bytes at least) and returns its length; nil for a
    /// year outside 0...9999.
    package static func writeISO(_ millis: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let c = components(millis)
        guard (0...9999).contains(c.year) else { return nil }
        let ms = Int(millis - floorDiv(millis, 1000) * 1000)
        let length = ms == 0 ? 20 : 24
        func put(_ value: Int, _ width: Int, at start: Int) {
            var value = value
            for index in stride(from: start + width - 1, through: start, by: -1) {
                buffer[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
            }
        }
        put(c.year, 4, at: 0)
        buffer[4] = 0x2D
        put(c.month, 2, at: 5)
        buffer[7] = 0x2D
        put(c.day, 2, at: 8)
        buffer[10] = 0x54
        put(c.hour, 2, at: 11)
        buffer[13] = 0x3A
        put(c.minute, 2, at: 14)
        buffer[16] = 0x3A
        put(c.second, 2, at: 17)
        if ms != 0 {
            buffer[19] = 0x2E
            put(ms, 3, at: 20)
        }
        buffer[length - 1] = 0x5A
        return length
    }

    /// Floor division (rounds towards minus infinity, so instants before 1970 fall on the right day).
    package static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// The day (since 1970-01-01) and the second of that day an instant falls on in `zone`
    /// (UTC when nil).
    public static func dayAndSecond(_ millis: Int64, in zone: TimeZone? = nil) -> (day: Int, second: Int) {
        var seconds = floorDiv(millis, 1000)
        if let zone {
            seconds += Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        }
        let day = floorDiv(seconds, 86_400)
        return (Int(day), Int(seconds - day * 86_400))
    }

    /// The calendar date and wall-clock time of an instant in `zone` (UTC when nil).
    public static func components(_ millis: Int64, in zone: TimeZone? = nil)
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
    {
        let (day, second) = dayAndSecond(millis, in: zone)
        let (y, m, d) = civil(fromDays: day)
        return (y, m, d, second / 3600, second / 60 % 60, second % 60)
    }

    /// `yyyy-MM-dd` of a day number since 1970-01-01.
    public static func dayString(_ days: Int) -> String {
        let (y, m, d) = civil(fromDays: days)
        guard (0...9999).contains(y) else { return String(format: "%04d-%02d-%02d", y, m, d) }
        // Revenue keys every counted transaction by its day: digits by hand, not `String(format:)`.
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var value = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    buffer[index] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
            }
            put(y, 4, at: 0)
            buffer[4] = 0x2D
            put(m, 2, at: 5)
            buffer[7] = 0x2D
            put(d, 2, at: 8)
            return 10
        }
    }
}

extension Timestamp {
    /// The instants a ledger or receipt row can hold (CONTRACT §1.1): from 2008-07-01 (the App Store
    /// opened on 2008-07-10) to before 2100-01-01.
    public static let plausible: Range<Int64> = 1_214_870_400_000..<4_102_444_800_000

    /// Why `millis` (parsed from `text` in `field`) is not a plausible instant; says "epoch
    /// seconds?" when the text is an integer that would be plausible read as seconds.
    package static func implausibleReason(field: String, text: String, millis: Int64) -> String {
        let shown = millis < plausible.lowerBound ? "before 2008-07-01" : "after 2100-01-01"
        var reason = "implausible timestamp in '\(field)': '\(text.prefix(40))' is \(shown)"
        let integer = !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if integer, case let (seconds, overflow) = millis.multipliedReportingOverflow(by: 1000), !overflow,
            plausible.contains(seconds)
        {
            reason += " (epoch seconds? this field takes epoch milliseconds: '\(text.prefix(40))000')"
        }
        return reason
    }
}
