import Foundation
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

/// `SALES_REPORT_MISMATCH` and the day-by-day reconciliation behind it.
@Suite struct SalesReportMismatchTests {
    /// Fx.clean's purchase is three days before Fx.asOf: 2026-11-15 in Los Angeles.
    static let salesDay = 20_772

    static func sales(days: [Int] = [salesDay], _ apple: [SalesReportRow]) -> DetectorCase.SalesInput {
        let zone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return DetectorCase.SalesInput(timeZone: zone, days: days, apple: apple)
    }

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a ledger purchase Apple's report of that day does not show",
            groups: [Fx.clean("1900001000")], sales: sales([]),
            expected: [ExpectedFinding(.salesReportMismatch, "", users: [], amount: Fx.usd(-9_990))]),
        DetectorCase(
            name: "a sale in Apple's report the ledger lacks",
            sales: sales([apple(salesDay, units: 1, price: 9_990)]),
            expected: [ExpectedFinding(.salesReportMismatch, "", users: [], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: Apple's report shows the purchase",
            groups: [Fx.clean("1900001100")], sales: sales([apple(salesDay, units: 1, price: 9_990)]),
            expected: []),
        DetectorCase(
            name: "near miss: no report covers the purchase's day",
            groups: [Fx.clean("1900001200")], sales: sales(days: [salesDay - 1], []),
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func theCasesAreOnTheirDay() throws {
        #expect(Self.salesDay == (try Self.day("2026-11-15")))
    }

    static func day(_ text: String) throws -> Int {
        let parts = text.split(separator: "-")
        return try #require(SalesReportParser.day("\(parts[1])/\(parts[2])/\(parts[0])"))
    }

    static func instant(_ iso: String) throws -> Int64 { try #require(Timestamp.parse(iso)) }

    static func apple(
        _ day: Int, _ product: String = "gems100", units: Int64, price: Int64, currency: String = "USD",
        country: String = "US"
    ) -> SalesReportRow {
        SalesReportRow(
            day: day, productID: product, productType: "IA1", countryCode: country,
            storefront: Territory.alpha3(country) ?? "", units: units,
            customerPrice: Money(milliunits: price, currency: currency), line: 2)
    }

    /// A verified ledger row purchased at `at`.
    static func purchase(
        _ tx: String, at: Int64, product: String = "gems100", price: Money = Fx.usd(9_990), storefront: String = "USA"
    ) -> LedgerTransaction {
        Fx.row("r-\(tx)", tx: tx, product: product, ago: Fx.asOf - at, price: price, storefront: storefront)
    }

    static func reconcile(
        zone: String, days: [Int], apple: [SalesReportRow], groups: [TransactionGroup]
    ) throws -> [SalesReconciliationLine] {
        var sales = SalesReconciliation(
            timeZone: try #require(TimeZone(identifier: zone)), days: days, apple: apple, asOf: Fx.asOf)
        for group in groups { sales.add(TransactionFacts(group, in: Fx.context())) }
        return sales.lines()
    }

    /// Apple's day is the calendar day in the report's time zone (America/Los_Angeles for
    /// worldwide agreements): a purchase late in the evening there is already the next day in UTC,
    /// and the offset moves with daylight saving time.
    @Test(arguments: [
        ("2026-03-31T23:30:00-07:00", "America/Los_Angeles", "2026-03-31"),  // last day of the month, PDT
        ("2026-03-31T23:30:00-07:00", "UTC", "2026-04-01"),
        ("2026-03-08T23:30:00-07:00", "America/Los_Angeles", "2026-03-08"),  // DST began that morning
        ("2026-03-09T00:30:00-07:00", "America/Los_Angeles", "2026-03-09"),  // a fixed -08:00 would say 03-08
        ("2026-11-01T23:30:00-08:00", "America/Los_Angeles", "2026-11-01"),  // DST ended that morning
        ("2026-10-31T23:30:00-07:00", "America/Los_Angeles", "2026-10-31"),  // last day of October, PDT
    ])
    func aPurchaseCountsOnItsCalendarDayInTheReportsTimeZone(purchased: String, zone: String, expected: String) throws {
        let day = try Self.day(expected)
        let lines = try Self.reconcile(
            zone: zone, days: [day - 1, day, day + 1], apple: [Self.apple(day, units: 1, price: 9_990)],
            groups: [Fx.group("1700000001", [Self.purchase("1700000001", at: try Self.instant(purchased))])])
        #expect(lines.count == 1)
        #expect(lines.first?.key.day == day)
        #expect(lines.allSatisfy { $0.matches }, "\(lines)")
    }

    @Test func aDayNoReportCoversIsNotCompared() throws {
        let covered = try Self.day("2026-11-10")
        let lines = try Self.reconcile(
            zone: "America/Los_Angeles", days: [covered], apple: [],
            groups: [
                Fx.group("1700000002", [Self.purchase("1700000002", at: try Self.instant("2026-11-12T10:00:00Z"))])
            ])
        #expect(lines.isEmpty)
    }

    /// `--as-of` is a cut-off for the comparison too (CONTRACT §5): a report's day is compared only once it has ended at
    /// as-of in the reports' time zone.
    ///
    /// Fx.asOf is 2026-11-18 03:09 in Los Angeles: the 17th is compared; the 18th (half after as-of) and the 19th are
    /// not, on either side, although reports cover them and the ledger has a purchase before as-of.
    @Test func onlyDaysEndedByAsOfAreCompared() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let (ended, open, later) = (try Self.day("2026-11-17"), try Self.day("2026-11-18"), try Self.day("2026-11-19"))
        let apple = [
            Self.apple(ended, units: 1, price: 9_990), Self.apple(open, units: 3, price: 9_990),
            Self.apple(later, units: 2, price: 9_990),
        ]
        let groups = try [("1700000030", "2026-11-17T12:00:00-08:00"), ("1700000031", "2026-11-18T02:00:00-08:00")]
            .map { tx, at in Fx.group(tx, [Self.purchase(tx, at: try Self.instant(at))]) }
        func reconcile(asOf: Int64) -> SalesReconciliation {
            var sales = SalesReconciliation(timeZone: zone, days: [ended, open, later], apple: apple, asOf: asOf)
            for group in groups { sales.add(TransactionFacts(group, in: Fx.context())) }
            return sales
        }
        let sales = reconcile(asOf: Fx.asOf)
        #expect(sales.comparedDays == [ended])
        let lines = sales.lines()
        #expect(lines.map(\.key.day) == [ended])
        #expect(lines.allSatisfy { $0.matches })
        #expect(SalesReportMismatch.merge(lines, timeZone: zone.identifier, into: []).isEmpty)

        // Two days later every report day has ended: the 18th (Apple 3, the ledger 1) and the 19th
        // (Apple 2, the ledger none) disagree.
        let later2 = reconcile(asOf: Fx.asOf + 2 * Fx.day)
        #expect(later2.comparedDays == [ended, open, later])
        #expect(later2.lines().filter { !$0.matches }.map(\.key.day) == [open, later])
    }

    /// A ledger with known disagreements: a match, a purchase Apple sold that the ledger lacks,
    /// a ledger purchase Apple never sold, a refund on a later day matching Apple's refund row,
    /// and a price the ledger booked differently.
    @Test func findsEveryDisagreementAndNothingElse() throws {
        let d = try Self.day("2026-11-15")
        let noonD = try Self.instant("2026-11-15T12:00:00-08:00")
        let eur = Money(milliunits: 10_990, currency: "EUR")
        let refundedAt = try Self.instant("2026-11-15T18:00:00-08:00")
        let groups = [
            Fx.group("1700000010", [Self.purchase("1700000010", at: noonD)]),
            Fx.group("1700000011", [Self.purchase("1700000011", at: noonD, price: eur, storefront: "DEU")]),
            Fx.group("1700000012", [Self.purchase("1700000012", at: noonD, product: "coins", price: Fx.usd(4_990))]),
            Fx.group(
                "1700000013", [Self.purchase("1700000013", at: noonD - Fx.day)],
                [
                    Fx.serverAPI("1700000013") {
                        $0.cancellationDate = refundedAt; $0.revocationType = "REFUND_FULL"
                    }
                ]),
            Fx.group("1700000014", [Self.purchase("1700000014", at: noonD, product: "gold", price: Fx.usd(1_990))]),
            Fx.group("1700000015", [Self.purchase("1700000015", at: noonD + 5 * Fx.day)]),
        ]
        let apple = [
            Self.apple(d, units: 1, price: 9_990),
            Self.apple(d, units: -1, price: -9_990),  // the refund of 1700000013
            Self.apple(d, units: 2, price: 10_990, currency: "EUR", country: "DE"),
            Self.apple(d, "gold", units: 1, price: 2_990),
        ]
        let lines = try Self.reconcile(zone: "America/Los_Angeles", days: [d], apple: apple, groups: groups)
        #expect(
            lines.map { "\($0.key.productID) \($0.key.storefront) \($0.key.currency) \($0.matches)" } == [
                "coins USA USD false", "gems100 DEU EUR false", "gems100 USA USD true", "gold USA USD false",
            ])
        let gems = try #require(lines.first { $0.key.productID == "gems100" && $0.key.currency == "USD" })
        #expect((gems.appleUnits, gems.ledgerUnits, gems.appleAmount, gems.ledgerAmount) == (0, 0, 0, 0))
        #expect(gems.transactionIDs == ["1700000010", "1700000013"])

        let findings = SalesReportMismatch.merge(lines, timeZone: "America/Los_Angeles", into: [])
        #expect(findings.count == 3)
        #expect(
            findings.allSatisfy { $0.code == .salesReportMismatch && $0.severity == .high && $0.transactionID == "" })
        #expect(Set(findings.map(\.fingerprint)).count == 3)
        let byProduct = Dictionary(grouping: findings) { "\($0.productID ?? "") \($0.amount?.currency ?? "")" }
        let euro = try #require(byProduct["gems100 EUR"]?.first)
        #expect(euro.amount == Money(milliunits: 10_990, currency: "EUR"))
        #expect(
            euro.detail
                == "On 2026-11-15 (America/Los_Angeles) gems100 in DEU EUR: Apple's sales report shows 2 units, "
                + "21.98 EUR; the ledger 1 unit, 10.99 EUR (transaction 1700000011)")
        let coins = try #require(byProduct["coins USD"]?.first)
        #expect(coins.amount == Fx.usd(-4_990))
        #expect(coins.detail.contains("Apple's sales report shows 0 units, 0.00 USD; the ledger 1 unit, 4.99 USD"))
        #expect(coins.recordIDs.isEmpty && coins.userIDs.isEmpty)
        #expect(coins.fingerprint == "SALES_REPORT_MISMATCH||||2026-11-15|coins|USA|USD")
        let gold = try #require(byProduct["gold USD"]?.first)
        #expect(gold.amount == Fx.usd(1_000))
    }

    /// A partial refund in Apple's Summary Sales Report is a row of 0 units whose Customer Price is the refunded
    /// amount, negative.
    ///
    /// https://developer.apple.com/help/app-store-connect/reference/summary-sales-report. The ledger books a prorated refund the same way: no unit
    /// back, the refunded share, so a clean ledger matches.
    @Test func aProratedRefundIsZeroUnitsAndTheRefundedShare() throws {
        let d = try Self.day("2026-11-15")
        let at = try Self.instant("2026-11-15T09:00:00-08:00")
        let groups = [
            Fx.group(
                "1700000020", [Self.purchase("1700000020", at: at, price: Fx.usd(19_980))],
                [
                    Fx.serverAPI("1700000020", price: Fx.usd(19_980)) {
                        $0.cancellationDate = at + Fx.hour
                        $0.revocationType = "REFUND_PRORATED"
                        $0.revocationPercentage = 50_000
                    }
                ])
        ]
        let apple = [Self.apple(d, units: 1, price: 19_980), Self.apple(d, units: 0, price: -9_990)]
        #expect(apple[1].isPartialRefund && apple[1].customerAmount == Fx.usd(-9_990))
        let lines = try Self.reconcile(zone: "America/Los_Angeles", days: [d], apple: apple, groups: groups)
        #expect(lines.count == 1)
        #expect(
            lines.first.map { ($0.appleUnits, $0.ledgerUnits, $0.appleAmount, $0.ledgerAmount) } ?? (9, 9, 9, 9)
                == (1, 1, 9_990, 9_990))
        #expect(lines.allSatisfy { $0.matches })
        // Near miss: the refund on its own day, 0 units and −9.99 on both sides; a full refund takes its unit back.
        let later = try Self.day("2026-11-16")
        let nextDay = [
            Fx.group(
                "1700000021", [Self.purchase("1700000021", at: at, price: Fx.usd(19_980))],
                [
                    Fx.serverAPI("1700000021", price: Fx.usd(19_980)) {
                        $0.cancellationDate = at + Fx.day
                        $0.revocationType = "REFUND_PRORATED"
                        $0.revocationPercentage = 50_000
                    }
                ])
        ]
        let refundDay = try Self.reconcile(
            zone: "America/Los_Angeles", days: [later], apple: [Self.apple(later, units: 0, price: -9_990)],
            groups: nextDay)
        #expect(
            refundDay.map { ($0.appleUnits, $0.ledgerUnits, $0.appleAmount, $0.ledgerAmount) }.first ?? (9, 9, 9, 9)
                == (0, 0, -9_990, -9_990))
        #expect(refundDay.allSatisfy { $0.matches })
    }
}
