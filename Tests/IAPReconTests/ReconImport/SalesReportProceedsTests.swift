import Foundation
import IAPReconTestSupport
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

/// A Summary Sales Report's `Developer Proceeds` (in `Currency of Proceeds`) and `Parent Identifier`, read as Apple
/// writes them, and stored (CONTRACT §1.5).
///
/// Apple's column list and sample report: https://developer.apple.com/help/app-store-connect/reference/summary-sales-report
@Suite struct SalesReportProceedsTests {
    let dir = TemporaryDirectory("sales-report-proceeds")

    func store() throws -> ReconStore {
        try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
    }

    func importReport(_ lines: [String], into store: ReconStore) throws -> ImportFileSummary {
        let path = try dir.write("S_D_85012345_20261115.txt", (lines + [""]).joined(separator: "\n"))
        return try #require(try Importer().run(ImportRequest(salesReports: [path]), into: store).first)
    }

    /// Apple's sample: "Refunds have negative values for Units and Customer Price, and positive values for
    /// Developer Proceeds" (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report).
    @Test func developerProceedsArePositiveOnRefundRowsTheSignIsInUnits() throws {
        let store = try store()
        let summary = try importReport(
            [
                SalesReportImportTests.header,
                SalesReportImportTests.row(
                    "coins_100", "IA1", units: "3", price: "0.99", proceeds: "0.69", parent: "com.example.app"),
                SalesReportImportTests.row(
                    "pro_monthly", "IAY", units: "-1", price: "-5.49", currency: "EUR", country: "DE",
                    proceeds: "3.85", parent: "com.example.app"),
                SalesReportImportTests.row(
                    "coins_100", "IA1", units: "2", price: "160", currency: "JPY", country: "JP", proceeds: "112"),
            ], into: store)
        #expect((summary.read, summary.accepted, summary.rejected) == (3, 3, 0))
        let rows = try store.appleReports.salesReportRows()
        let usd = try #require(rows.first { $0.customerPrice.currency == "USD" })
        #expect(usd.developerProceeds == Money(milliunits: 690, currency: "USD"))
        #expect(usd.proceedsAmount == Money(milliunits: 2_070, currency: "USD"))
        #expect(usd.parentIdentifier == "com.example.app")
        let refund = try #require(rows.first { $0.productID == "pro_monthly" })
        #expect(refund.developerProceeds == Money(milliunits: 3_850, currency: "EUR"))
        #expect(refund.proceedsAmount == Money(milliunits: -3_850, currency: "EUR"))
        #expect(refund.customerAmount == Money(milliunits: -5_490, currency: "EUR"))
        let yen = try #require(rows.first { $0.customerPrice.currency == "JPY" })
        #expect(yen.proceedsAmount == Money(milliunits: 224_000, currency: "JPY"))
        #expect(yen.parentIdentifier == "demo_app")
    }

    /// `proceedsAmount` is units × the unit proceeds, signed by the units whatever sign the proceeds carry, and nil
    /// rather than wrong when it cannot be held.
    @Test func theProceedsAmountIsSignedByUnitsAndOverflowSafe() {
        func row(units: Int64, proceeds: Int64?) -> SalesReportRow {
            SalesReportRow(
                day: 20_772, productID: "coins_100", productType: "IA1", countryCode: "US", storefront: "USA",
                units: units, customerPrice: Money(milliunits: 990, currency: "USD"),
                developerProceeds: proceeds.map { Money(milliunits: $0, currency: "USD") }, line: 2)
        }
        #expect(row(units: -2, proceeds: 690).proceedsAmount == Money(milliunits: -1_380, currency: "USD"))
        #expect(row(units: -2, proceeds: -690).proceedsAmount == Money(milliunits: -1_380, currency: "USD"))
        #expect(row(units: 2, proceeds: -690).proceedsAmount == Money(milliunits: 1_380, currency: "USD"))
        #expect(row(units: 1, proceeds: nil).proceedsAmount == nil)
        #expect(row(units: .max, proceeds: 2).proceedsAmount == nil)
        #expect(row(units: 1, proceeds: .min).proceedsAmount == nil)
    }

    /// Older reports (and reports cut down by hand) may lack `Developer Proceeds`, `Currency of Proceeds` and
    /// `Parent Identifier`: their rows are read, with no proceeds and no parent (proceeds without their currency
    /// are none).
    @Test(arguments: [
        ["Developer Proceeds", "Currency of Proceeds", "Parent Identifier"], ["Currency of Proceeds"],
    ])
    func aReportWithoutTheOptionalColumnsReadsThemAsAbsent(dropped: [String]) throws {
        let optional = Set(dropped)
        let names = SalesReportImportTests.header.split(separator: "\t").map(String.init)
        let kept = names.indices.filter { !optional.contains(names[$0]) }
        func cut(_ line: String) -> String {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return kept.map { String(fields[$0]) }.joined(separator: "\t")
        }
        let store = try store()
        let summary = try importReport(
            [
                cut(SalesReportImportTests.header),
                cut(SalesReportImportTests.row("coins_100", "IA1", units: "3", price: "0.99")),
            ], into: store)
        #expect((summary.read, summary.accepted, summary.rejected) == (1, 1, 0))
        let row = try #require(try store.appleReports.salesReportRows().first)
        #expect(row.developerProceeds == nil && row.proceedsAmount == nil)
        #expect(row.parentIdentifier == (optional.contains("Parent Identifier") ? nil : "demo_app"))
        #expect(row.customerAmount == Money(milliunits: 2_970, currency: "USD"))
    }

    /// A proceeds value that is present but cannot be read is a rejected row with its reason; an empty cell is no
    /// proceeds.
    @Test func aMalformedProceedsValueIsARejectedRow() throws {
        let store = try store()
        let summary = try importReport(
            [
                SalesReportImportTests.header,
                SalesReportImportTests.row("coins_100", "IA1", units: "1", price: "0.99", proceeds: "0,69"),
                SalesReportImportTests.row(
                    "coins_100", "IA1", units: "1", price: "0.99", proceeds: "0.69", proceedsCurrency: "XBT"),
                SalesReportImportTests.row(
                    "coins_100", "IA1", units: "1", price: "0.99", proceeds: "0.69", proceedsCurrency: ""),
                SalesReportImportTests.row("coins_100", "IA1", units: "1", price: "0.99", proceeds: "0.6931"),
                SalesReportImportTests.row("coins_100", "IA1", units: "1", price: "0.99", proceeds: ""),
            ], into: store)
        #expect((summary.read, summary.accepted, summary.rejected) == (5, 1, 4))
        #expect(
            try store.ledger.rejectedRows().map { "\($0.line): \($0.reason)" } == [
                "2: bad Developer Proceeds in 'USD': '0,69' is not a decimal number",
                "3: unknown Currency of Proceeds 'XBT'",
                "4: Developer Proceeds '0.69' without a Currency of Proceeds",
                "5: bad Developer Proceeds in 'USD': '0.6931' has more than 3 decimals",
            ])
        let row = try #require(try store.appleReports.salesReportRows().first)
        #expect(row.developerProceeds == nil && row.line == 6)
    }

    /// A store written by the previous version (no proceeds columns) upgrades on first use: its rows read without
    /// proceeds, and the next import stores them.
    @Test func aStoreWrittenBeforeProceedsUpgradesOnFirstUse() throws {
        let path = dir.file("s.sqlite")
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute(
                "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)")
            for migration in Schema.migrations.prefix(while: { $0.name != "issue21-sales-report-proceeds" }) {
                try db.execute(migration.sql)
                try db.prepare("INSERT INTO schema_migrations (name, applied_at) VALUES ($1, 0)").run([
                    .text(migration.name)
                ])
            }
            try db.execute(
                """
                INSERT INTO sales_report_days (day, source_file, imported_at) VALUES (20771, 'old.txt', 5);
                INSERT INTO sales_report_rows (day, product_id, product_type, country_code, storefront, currency,
                    units, customer_price_milli, source_file, source_line)
                VALUES (20771, 'coins_100', 'IA1', 'US', 'USA', 'USD', 2, 990, 'old.txt', 2);
                """)
        }
        let store = try store()
        let old = try #require(try store.appleReports.salesReportRows().first)
        #expect(old.units == 2 && old.developerProceeds == nil && old.parentIdentifier == nil)
        _ = try importReport(
            [SalesReportImportTests.header, SalesReportImportTests.row("coins_100", "IA1", units: "3", price: "0.99")],
            into: store)
        let rows = try store.appleReports.salesReportRows()
        #expect(rows.count == 2)
        #expect(rows.last?.proceedsAmount == Money(milliunits: 2_070, currency: "USD"))
        #expect(rows.last?.parentIdentifier == "demo_app")
    }
}
