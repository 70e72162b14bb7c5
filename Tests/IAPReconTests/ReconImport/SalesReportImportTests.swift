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

/// Apple Summary Sales Reports as App Store Connect delivers them (CONTRACT §1.5).
///
/// The header is Apple's: https://developer.apple.com/help/app-store-connect/reference/summary-sales-report
@Suite struct SalesReportImportTests {
    let dir = TemporaryDirectory("sales-report")

    static let header = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
        "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
        "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period", "Category",
        "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type",
    ].joined(separator: "\t")

    /// A data row; only the columns the import reads vary.
    static func row(
        _ sku: String, _ type: String, units: String, price: String, currency: String = "USD", country: String = "US",
        begin: String = "11/15/2026", end: String? = nil, proceeds: String = "0.69", proceedsCurrency: String? = nil,
        parent: String = "demo_app"
    ) -> String {
        [
            "APPLE", "US", sku, "Example Developer", sku, "", type, units, proceeds, begin, end ?? begin, currency,
            country, proceedsCurrency ?? currency, "1234567890", price, "", parent, "", "", "Games", "", "iPhone",
            "iOS",
            "", "", "", "",
        ].joined(separator: "\t")
    }

    static let report = [
        header,
        row("demo_app", "1", units: "57", price: "0"),  // app downloads: skipped
        row("coins_100", "IA1", units: "3", price: "0.99"),
        row("coins_100", "IA1", units: "2", price: "160", currency: "JPY", country: "JP"),
        row("pro_monthly", "IAY", units: "-1", price: "-5.49", currency: "EUR", country: "DE"),  // a refund
        row("remove_ads", "IA9-M", units: "1", price: "2.99"),
        row("demo_app", "7", units: "12", price: "0"),  // updates: skipped
        row("coins_100", "IA1", units: "three", price: "0.99"),
        row("coins_100", "IA1", units: "1", price: "0.99", country: "ZZ"),
        row("coins_100", "IA1", units: "1", price: "160.5", currency: "JPY", country: "JP"),
        row("coins_100", "IA1", units: "1", price: "0.99", begin: "2026-11-15"),
        row("coins_100", "IA1", units: "1", price: "0.99", begin: "11/01/2026", end: "11/30/2026"),
        "APPLE\tUS\tcoins_100\ttruncated",
        "",
    ].joined(separator: "\n")

    func store() throws -> ReconStore {
        try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
    }

    func gzip(_ name: String, _ text: String) throws -> String {
        let plain = try dir.write(name, text)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-f", plain]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return plain + ".gz"
    }

    @Test(arguments: [false, true])
    func readsInAppPurchaseRowsSkipsOthersAndRejectsBadOnes(gzipped: Bool) throws {
        let path =
            gzipped ? try gzip("S_D_1_20261115.txt", Self.report) : try dir.write("S_D_1_20261115.txt", Self.report)
        let store = try store()
        let summaries = try Importer().run(ImportRequest(salesReports: [path]), into: store)
        let summary = try #require(summaries.first)
        #expect((summary.read, summary.accepted, summary.rejected, summary.skipped) == (12, 6, 6, 2))
        #expect(summary.line.hasSuffix("read 12, accepted 6 (2 not in-app purchases, not compared), rejected 6"))

        let day = try #require(SalesReportParser.day("11/15/2026"))
        #expect(try store.appleReports.salesReportDays() == [day])
        let rows = try store.appleReports.salesReportRows()
        #expect(
            rows.map { "\($0.productID) \($0.productType) \($0.storefront) \($0.units) \($0.customerPrice)" } == [
                "coins_100 IA1 JPN 2 \(Money(milliunits: 160_000, currency: "JPY"))",
                "coins_100 IA1 USA 3 \(Money(milliunits: 990, currency: "USD"))",
                "pro_monthly IAY DEU -1 \(Money(milliunits: -5_490, currency: "EUR"))",
                "remove_ads IA9-M USA 1 \(Money(milliunits: 2_990, currency: "USD"))",
            ])
        #expect(
            rows.first { $0.productID == "pro_monthly" }?.customerAmount == Money(milliunits: -5_490, currency: "EUR"))
        #expect(rows.first { $0.storefront == "USA" }?.customerAmount == Money(milliunits: 2_970, currency: "USD"))

        let rejected = try store.ledger.rejectedRows()
        #expect(rejected.allSatisfy { $0.kind == .salesReports && $0.source == path })
        #expect(
            rejected.map { "\($0.line): \($0.reason)" } == [
                "8: bad Units 'three'",
                "9: unknown Country Code 'ZZ' (expected ISO 3166-1 alpha-2)",
                "10: bad Customer Price in 'JPY': '160.5' has more than 0 decimals",
                "11: bad Begin Date '2026-11-15' (expected MM/DD/YYYY)",
                "12: not a daily report row: Begin Date 11/01/2026 ≠ End Date 11/30/2026",
                "13: row has 4 fields, header has 28",
            ])
    }

    /// Summary Sales Report (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report):
    /// a partial refund is a row of 0 units with a negative Customer Price; the amount is what the row states, and
    /// its Developer Proceeds (positive, as on every refund row) are taken back.
    @Test func aPartialRefundRowOfZeroUnitsReadsAsTheRowStatesIt() throws {
        let report = [
            Self.header,
            Self.row(
                "pro_monthly", "IAY", units: "0", price: "-2.75", currency: "EUR", country: "DE", proceeds: "1.93"),
            "",
        ].joined(separator: "\n")
        let store = try store()
        let summaries = try Importer().run(
            ImportRequest(salesReports: [try dir.write("S_D_1_20261115.txt", report)]), into: store)
        #expect(summaries.first.map { ($0.accepted, $0.rejected) } ?? (9, 9) == (1, 0))
        let row = try #require(try store.appleReports.salesReportRows().first)
        #expect(row.units == 0 && row.isPartialRefund)
        #expect(row.customerAmount == Money(milliunits: -2_750, currency: "EUR"))
        #expect(row.proceedsAmount == Money(milliunits: -1_930, currency: "EUR"))
    }

    @Test func reimportingADayReplacesItAndItsRejections() throws {
        let store = try store()
        let first = try dir.write("first.txt", Self.report)
        _ = try Importer().run(ImportRequest(salesReports: [first]), into: store)
        _ = try Importer().run(ImportRequest(salesReports: [first]), into: store)
        #expect(try store.appleReports.salesReportRows().count == 4)
        #expect(try store.ledger.rejectedRows().count == 6)
        // A corrected report of the same day, under another name, replaces the day's rows.
        let corrected = try dir.write(
            "corrected.txt",
            [Self.header, Self.row("coins_100", "IA1", units: "4", price: "0.99"), ""].joined(separator: "\n"))
        _ = try Importer().run(ImportRequest(salesReports: [corrected]), into: store)
        #expect(try store.appleReports.salesReportRows().map(\.units) == [4])
        // Another day's report adds a day.
        let next = try dir.write(
            "next.txt",
            [Self.header, Self.row("coins_100", "IA1", units: "1", price: "0.99", begin: "11/16/2026"), ""]
                .joined(separator: "\n"))
        _ = try Importer().run(ImportRequest(salesReports: [next]), into: store)
        #expect(try store.appleReports.salesReportDays().count == 2)
        #expect(try store.appleReports.salesReportRows().map(\.units) == [4, 1])
    }

    @Test func aFileThatIsNotASalesReportIsOneLineNamingIt() throws {
        let path = try dir.write("transactions.csv", "record_id,user_id,product_id\nr1,u1,p\n")
        let error = try #require(throws: ImportFileError.self) {
            try Importer().run(ImportRequest(salesReports: [path]), into: try store())
        }
        #expect(
            error.localizedDescription
                == "cannot read '\(path)': not an Apple Summary Sales Report (header lacks 'SKU', 'Product Type "
                + "Identifier', 'Units', 'Begin Date', 'End Date', 'Customer Currency', 'Country Code', 'Customer Price')"
        )
        #expect(try store().appleReports.salesReportDays().isEmpty)
    }

    @Test func aTruncatedGzipFileIsAnErrorNamingIt() throws {
        let full = try gzip("cut.txt", Self.report)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = dir.file("cut-short.txt.gz")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let error = try #require(throws: ImportFileError.self) {
            try Importer().run(ImportRequest(salesReports: [cut]), into: try store())
        }
        #expect(error.localizedDescription.hasPrefix("cannot read '\(cut)': "))
        #expect(try store().appleReports.salesReportRows().isEmpty)
    }

    @Test func aMissingFileFailsBeforeAnythingIsImported() throws {
        let missing = dir.file("nope.txt.gz")
        #expect(throws: ImportFileError.cannotOpen(path: missing, reason: "no such file")) {
            try Importer().run(ImportRequest(salesReports: [missing]), into: try store())
        }
    }

    @Test(arguments: [
        ("US", "USA"), ("DE", "DEU"), ("JP", "JPN"), ("GB", "GBR"), ("KR", "KOR"), ("CH", "CHE"), ("AE", "ARE"),
        ("XK", "XKS"), ("us", "USA"),
    ])
    func countryCodesMapToStorefronts(alpha2: String, alpha3: String) {
        #expect(Territory.alpha3(alpha2) == alpha3)
        #expect(Territory.alpha2(fromAlpha3: alpha3) == alpha2.uppercased())
    }

    @Test func theTerritoryTableIsCompleteISO3166() {
        #expect(Territory.alpha2ToAlpha3.count == 249)
        #expect(Territory.alpha2ToAlpha3.allSatisfy { $0.key.count == 2 && $0.value.count == 3 })
        #expect(Set(Territory.alpha2ToAlpha3.values).count == 249)
    }
}
