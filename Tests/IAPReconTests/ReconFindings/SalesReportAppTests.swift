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

/// Which rows of a developer account's Summary Sales Report are this app's (``SalesReportApp``).
@Suite struct SalesReportAppTests {
    typealias Sales = SalesReportMismatchTests

    static func apple(
        _ product: String, units: Int64, price: Int64, parent: String?, day: Int = Sales.salesDay
    ) -> SalesReportRow {
        SalesReportRow(
            day: day, productID: product, productType: "IA1", countryCode: "US", storefront: "USA", units: units,
            customerPrice: Fx.usd(price), developerProceeds: Fx.usd(price * 7 / 10), parentIdentifier: parent, line: 2)
    }

    /// A Summary Sales Report covers every app of the account: only this app's rows are compared.
    ///
    /// "Summary Sales Report shows aggregated sales and download data from the App Store for your apps and in-app
    /// purchases" (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report): every app of
    /// the developer account is in it. Another app's in-app purchases are not this app's sales: left out and
    /// counted, never a `SALES_REPORT_MISMATCH` on a clean ledger.
    @Test func aSummarySalesReportCoversEveryAppOfTheAccount() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let apple = [
            Self.apple("gems100", units: 1, price: 9_990, parent: "com.example.app"),
            Self.apple("other.coins", units: 3, price: 1_990, parent: "com.example.other"),
            Self.apple("other.coins", units: -1, price: -1_990, parent: "com.example.other"),
            Self.apple("other.gold", units: 2, price: 4_990, parent: "OtherAppSKU"),
        ]
        let context = Fx.context()
        var sales = SalesReconciliation(
            timeZone: zone, days: [Sales.salesDay], apple: apple, asOf: context.asOf, app: SalesReportApp(context))
        sales.add(TransactionFacts(Fx.clean("1900005000"), in: context))
        let lines = sales.lines()
        #expect(lines.map(\.key.productID) == ["gems100"])
        #expect(lines.allSatisfy { $0.matches }, "\(lines)")
        #expect(SalesReportMismatch.merge(lines, timeZone: zone.identifier, into: []).isEmpty)
        #expect(sales.rowsOfOtherApps == 3)
        #expect(sales.skusOfOtherApps == ["other.coins", "other.gold"])
    }

    @Test(
        arguments: [
            // In the catalog, or in the ledger.
            ("gems100", "SomeOtherParent", true), ("ledger.only", nil, true),
            // Parent Identifier is one of the app's bundle ids, or the SKU starts with one and a dot.
            ("new.product", "com.example.app", true), ("com.example.app.coins", nil, true),
            // Another app: not in the catalog or the ledger, another parent, a prefix that is not a bundle id.
            ("other.coins", "com.example.other", false), ("com.example.apple.coins", nil, false), ("coins", nil, false),
        ] as [(String, String?, Bool)])
    func aRowIsThisAppsByCatalogLedgerOrBundleID(product: String, parent: String?, owned: Bool) {
        let app = SalesReportApp(Fx.context())
        #expect(app.owns(productID: product, parentIdentifier: parent, ledgerProducts: ["ledger.only"]) == owned)
    }

    /// With nothing known about the app (no catalog, no ledger product, no bundle id), every row is the app's, as
    /// before; the ledger's products alone are enough to tell.
    @Test func withNothingKnownEveryRowCounts() {
        let nothing = SalesReportApp()
        #expect(nothing.owns(productID: "other.coins", parentIdentifier: "com.example.other", ledgerProducts: []))
        #expect(!nothing.owns(productID: "other.coins", parentIdentifier: nil, ledgerProducts: ["gems100"]))
    }

    /// Leaving other apps out hides nothing of this app's: a ledger purchase Apple's report lacks is still a
    /// mismatch.
    @Test func aLedgerPurchaseAppleDidNotReportIsStillAMismatch() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let context = Fx.context()
        var sales = SalesReconciliation(
            timeZone: zone, days: [Sales.salesDay],
            apple: [Self.apple("other.coins", units: 1, price: 1_990, parent: "com.example.other")],
            asOf: context.asOf, app: SalesReportApp(context))
        sales.add(TransactionFacts(Fx.clean("1900005100"), in: context))
        let findings = SalesReportMismatch.merge(sales.lines(), timeZone: zone.identifier, into: [])
        #expect(findings.map(\.productID) == ["gems100"])
        #expect(findings.first?.amount == Fx.usd(-9_990))
        #expect(sales.rowsOfOtherApps == 1)
    }
}
