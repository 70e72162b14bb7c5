import Foundation
import Testing

@testable import IAPRecon

/// What counts as revenue (``RevenuePolicy``), as Apple's books keep it: the revenue report and the sales
/// reconciliation ask the same policy, so a clean ledger agrees with Apple's Summary Sales Report.
@Suite struct RevenuePolicyTests {
    typealias Sales = SalesReportMismatchTests

    static let zone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0) ?? .current

    static func revenue(_ groups: [TransactionGroup], asOf: Int64 = Fx.asOf) -> RevenueBuilder {
        var context = Fx.context()
        context.asOf = asOf
        var builder = RevenueBuilder(timeZone: zone, context: context)
        for group in groups { builder.add(group.asOf(asOf)) }
        return builder
    }

    static func lines(
        _ groups: [TransactionGroup], days: [Int], apple: [SalesReportRow], asOf: Int64 = Fx.asOf
    ) -> [SalesReconciliationLine] {
        var context = Fx.context()
        context.asOf = asOf
        var sales = SalesReconciliation(
            timeZone: zone, days: days, apple: apple, asOf: asOf, app: SalesReportApp(context))
        for group in groups { sales.add(TransactionFacts(group.asOf(asOf), in: context)) }
        return sales.lines()
    }

    static func text(_ rows: [RevenueRow]) -> [String] {
        rows.map { "\($0.date) \($0.productID) \($0.units) \($0.gross) \($0.refunds) \($0.net)" }
    }

    // MARK: Family Sharing

    static func familyShared(_ tx: String) -> TransactionGroup {
        Fx.group(
            tx, [Fx.row("r-\(tx)", tx: tx, user: "family-member")],
            [Fx.serverAPI(tx) { $0.inAppOwnershipType = "FAMILY_SHARED" }])
    }

    /// A family-shared transaction is no sale.
    ///
    /// Apple documents `inAppOwnershipType` `FAMILY_SHARED` as a transaction that belongs to a family member who
    /// benefits from the service (https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype). The family member paid
    /// nothing and Apple's sales report shows no sale: no unit and no amount in revenue or in any reconciliation.
    @Test func aFamilySharedTransactionIsAFamilyMembersAccessNotASale() {
        let groups = [Fx.clean("1900006000"), Self.familyShared("1900006001")]
        let builder = Self.revenue(groups)
        #expect(Self.text(builder.rows()) == ["2026-11-15 gems100 1 9990 0 9990"])
        #expect(builder.excludedAsSandbox.isEmpty && builder.duplicateRowsIgnored == 0)

        let testCase = DetectorCase(
            name: "family shared beside a purchase", groups: groups,
            sales: Sales.sales([Sales.apple(Sales.salesDay, units: 1, price: 9_990)]), expected: [])
        testCase.check()
        let lines = Self.lines(
            groups, days: [Sales.salesDay], apple: [Sales.apple(Sales.salesDay, units: 1, price: 9_990)])
        #expect(
            lines.map { "\($0.ledgerUnits) \($0.ledgerAmount) \($0.transactionIDs)" } == ["1 9990 [\"1900006000\"]"])
    }
}
