import Testing
@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

@Suite struct MoneyTests {
    @Test(arguments: [
        ("9.99", "USD", Int64(9_990)), ("1200", "JPY", 1_200_000), ("1.250", "KWD", 1_250),
        ("-4.99", "usd", -4_990), ("0.5", "EUR", 500), ("9.990", "USD", 9_990), ("+3", "GBP", 3_000),
    ])
    func parsesExactly(text: String, currency: String, milli: Int64) throws {
        let money = try Money.parse(text, currency: currency)
        #expect(money.milliunits == milli)
        #expect(money.currency == currency.uppercased())
    }

    @Test(arguments: [
        ("9.999", "USD", MoneyError.tooManyDecimals("9.999", allowed: 2)),
        ("12.5", "JPY", MoneyError.tooManyDecimals("12.5", allowed: 0)),
        ("1.2345", "KWD", MoneyError.tooManyDecimals("1.2345", allowed: 3)),
        ("abc", "USD", MoneyError.notADecimal("abc")),
        ("1e3", "USD", MoneyError.notADecimal("1e3")),
        ("", "USD", MoneyError.notADecimal("")),
        ("1.", "USD", MoneyError.notADecimal("1.")),
        ("1", "XXQ", MoneyError.unknownCurrency("XXQ")),
    ])
    func rejectsBadAmounts(text: String, currency: String, error: MoneyError) {
        #expect(throws: error) { try Money.parse(text, currency: currency) }
    }

    @Test(arguments: [
        (Int64(9_990), "USD", "9.99"), (1_200_000, "JPY", "1200"), (1_250, "KWD", "1.250"),
        (-4_990, "USD", "-4.99"), (0, "USD", "0.00"), (-1, "USD", "0.00"), (5, "USD", "0.01"),
        (-5, "USD", "-0.01"), (1_500, "JPY", "2"), (123_456_789, "USD", "123456.79"), (50, "KWD", "0.050"),
        (Int64.min, "USD", "-9223372036854775.81"), (Int64.max, "JPY", "9223372036854776"),
    ])
    func formatsWithCurrencyDecimals(milli: Int64, currency: String, text: String) {
        #expect(Money(milliunits: milli, currency: currency).formatted == text)
    }

    @Test func proceedsRateRoundsHalfAwayFromZero() {
        #expect(Money(milliunits: 9_990, currency: "USD").scaled(byPPM: 700_000).milliunits == 6_993)
        #expect(Money(milliunits: 5, currency: "USD").scaled(byPPM: 500_000).milliunits == 3)
        #expect(Money(milliunits: -5, currency: "USD").scaled(byPPM: 500_000).milliunits == -3)
    }

    /// Report times: UTC, milliseconds only when there are some, the years ISO 8601 writes with four digits.
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"), (1_795_176_000_123, "2026-11-20T12:00:00.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (253_402_300_799_000, "9999-12-31T23:59:59Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00Z"),
    ])
    func timestampsInReportsAreISO8601InUTC(millis: Int64, text: String) {
        #expect(Timestamp.iso(millis) == text)
        #expect(Timestamp.parse(text) == millis)
    }
}
