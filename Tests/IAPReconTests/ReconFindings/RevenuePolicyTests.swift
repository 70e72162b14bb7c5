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

    // MARK: Refunds Apple reversed

    static let purchased = "2026-11-14T10:00:00-08:00"
    static let refunded = "2026-11-15T09:00:00-08:00"
    static let reversed = "2026-11-16T11:00:00-08:00"

    /// A notification's signed transaction as the store keeps it: recorded and learned at the notification's date.
    static func notification(
        _ tx: String, at signed: Int64, edit: (inout EvidenceEntry) -> Void = { _ in }
    ) -> EvidenceRecord {
        var record = Fx.evidence(tx, source: .notification, receipt: .some(nil), recordedAt: signed) { entry in
            entry.signedDate = signed
            edit(&entry)
        }
        record.learnedAt = signed
        return record
    }

    /// Purchased, refunded by Apple (`REFUND`), and the refund reversed (`REFUND_REVERSED`).
    static func reversedRefund(_ tx: String) throws -> TransactionGroup {
        let (bought, refund, reversal) = (
            try Sales.instant(purchased), try Sales.instant(refunded), try Sales.instant(reversed)
        )
        return Fx.group(
            tx, [Sales.purchase(tx, at: bought)],
            [
                notification(tx, at: refund) {
                    $0.purchaseDate = bought
                    $0.cancellationDate = refund
                    $0.revocationType = "REFUND_FULL"
                },
                notification(tx, at: reversal) { $0.purchaseDate = bought },
            ])
    }

    /// A refund Apple reversed stays on the day of the refund; the reversal is booked on its own day.
    ///
    /// Apple documents `REFUND_REVERSED` as the App Store reversing a refund it granted earlier, after a dispute
    /// the customer raised (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    /// Apple's books keep the refund on the day Apple refunded and book the reversal on the day Apple reversed it:
    /// its Summary Sales Report shows −1 unit on the refund day and +1 on the reversal day, and the ledger agrees.
    @Test func aRefundReversedByAppleStaysOnItsDayAndTheReversalIsBookedOnItsOwn() throws {
        let group = try Self.reversedRefund("1900007000")
        let (d0, d1, d2) = (try Sales.day("2026-11-14"), try Sales.day("2026-11-15"), try Sales.day("2026-11-16"))
        let apple = [
            Sales.apple(d0, units: 1, price: 9_990), Sales.apple(d1, units: -1, price: -9_990),
            Sales.apple(d2, units: 1, price: 9_990),
        ]
        let lines = Self.lines([group], days: [d0, d1, d2], apple: apple)
        #expect(
            lines.map { "\($0.key.day - d0) \($0.appleUnits) \($0.ledgerUnits) \($0.appleAmount) \($0.ledgerAmount)" }
                == ["0 1 1 9990 9990", "1 -1 -1 -9990 -9990", "2 1 1 9990 9990"])
        // Clean: no SALES_REPORT_MISMATCH, and Apple's latest word (not refunded) leaves no refund finding.
        DetectorCase(
            name: "a reversed refund", groups: [group],
            sales: DetectorCase.SalesInput(timeZone: Self.zone, days: [d0, d1, d2], apple: apple), expected: []
        ).check()
        #expect(!TransactionFacts(group, in: Fx.context()).refund.isCancelled)

        // revenue_daily: the sale on its day, the refund on the refund day, the reversal (a negative refund) on its own.
        let builder = Self.revenue([group])
        #expect(
            Self.text(builder.rows()) == [
                "2026-11-14 gems100 1 9990 0 9990", "2026-11-15 gems100 0 0 9990 -9990",
                "2026-11-16 gems100 0 0 -9990 9990",
            ])
        #expect(builder.rows().map(\.estimatedProceeds) == [6_990, -6_990, 6_990])
    }

    /// `--as-of` between the refund and its reversal: Apple had refunded and not yet reversed, so the refund stands
    /// (the reversal, learned later, is not in that report), and the day of the refund still agrees with Apple.
    @Test func beforeTheReversalTheRefundStands() throws {
        let group = try Self.reversedRefund("1900007100")
        let asOf = try Sales.instant("2026-11-16T08:00:00-08:00")
        let (d0, d1) = (try Sales.day("2026-11-14"), try Sales.day("2026-11-15"))
        let lines = Self.lines(
            [group], days: [d0, d1],
            apple: [Sales.apple(d0, units: 1, price: 9_990), Sales.apple(d1, units: -1, price: -9_990)], asOf: asOf)
        #expect(lines.count == 2 && lines.allSatisfy { $0.matches }, "\(lines)")
        #expect(
            Self.text(Self.revenue([group], asOf: asOf).rows()) == [
                "2026-11-14 gems100 1 9990 0 9990", "2026-11-15 gems100 0 0 9990 -9990",
            ])
    }

    /// Refunded, reversed, then refunded again: each refund on its day, the reversal between them on its own.
    @Test func aRefundAgainAfterAReversalIsBookedAgain() throws {
        var group = try Self.reversedRefund("1900007200")
        let again = try Sales.instant("2026-11-17T09:00:00-08:00")
        group.evidence.append(
            Self.notification("1900007200", at: again) {
                $0.cancellationDate = again
                $0.revocationType = "REFUND_FULL"
            })
        #expect(
            Self.text(Self.revenue([group]).rows()) == [
                "2026-11-14 gems100 1 9990 0 9990", "2026-11-15 gems100 0 0 9990 -9990",
                "2026-11-16 gems100 0 0 -9990 9990", "2026-11-17 gems100 0 0 9990 -9990",
            ])
    }
}
