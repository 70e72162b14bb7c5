import ReconModel

/// Date parsing for receipt fields, without Foundation formatters (exact, locale-free, and safe
/// on any input).
package enum ReceiptDates {
    /// Parses RFC 3339 / ISO 8601 as app receipts write it: `2023-10-19T01:45:36Z`, with
    /// optional fractional seconds and `Z` or `±HH:MM` (`±HHMM`) offset.
    ///
    /// - Returns: epoch milliseconds, or nil when the text is not such a date.
    package static func rfc3339Millis(_ text: String) -> Int64? {
        var scanner = DateScanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), scanner.take("T") || scanner.take("t") || scanner.take(" "),
            let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2), scanner.take(":"),
            let second = scanner.digits(2)
        else { return nil }
        var millis = 0
        if scanner.take(".") || scanner.take(",") {
            guard let fraction = scanner.fractionMillis() else { return nil }
            millis = fraction
        }
        var offsetMinutes = 0
        if scanner.take("Z") || scanner.take("z") {
            offsetMinutes = 0
        } else if let sign = scanner.sign() {
            guard let offsetHours = scanner.digits(2) else { return nil }
            _ = scanner.take(":")
            guard let offsetMins = scanner.digits(2), offsetHours < 24, offsetMins < 60 else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + offsetMins)
        } else {
            return nil
        }
        guard scanner.atEnd else { return nil }
        return epochMillis(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millis: millis,
            offsetMinutes: offsetMinutes)
    }

    /// Parses iOS 6 receipts' `2013-05-20 18:01:01 Etc/GMT` (GMT/UTC zones only).
    ///
    /// - Returns: epoch milliseconds, or nil for any other text.
    package static func legacyGMTMillis(_ text: String) -> Int64? {
        var scanner = DateScanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), scanner.take(" "), let hour = scanner.digits(2), scanner.take(":"),
            let minute = scanner.digits(2), scanner.take(":"), let second = scanner.digits(2)
        else { return nil }
        let zone = String(decoding: scanner.rest, as: UTF8.self).trimmingASCIISpaces()
        guard ["Etc/GMT", "GMT", "UTC", "Etc/UTC", ""].contains(zone) else { return nil }
        return epochMillis(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millis: 0, offsetMinutes: 0)
    }

    /// Epoch milliseconds of a proleptic Gregorian date-time, or nil when a field is out of range.
    package static func epochMillis(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millis: Int, offsetMinutes: Int
    ) -> Int64? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second), (0...999).contains(millis)
        else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes) * 60
        return seconds * 1000 + Int64(millis)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private struct DateScanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }
        var rest: ArraySlice<UInt8> { bytes[position...] }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[position + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// Up to 9 fraction digits, truncated to milliseconds.
        mutating func fractionMillis() -> Int? {
            var value = 0
            var count = 0
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                if count < 3 { value = value * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                count += 1
                position += 1
                if count > 9 { return nil }
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { value *= 10 }
            return value
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs.
    package func trimmingASCIISpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
