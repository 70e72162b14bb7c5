import Foundation
import Testing

@testable import ReconFindings
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports

/// `commitments.csv`'s lines (CONTRACT §7): billed, refunded, unbilled while active, and the three ways a commitment
/// ends early.
@Suite struct CommitmentsTests {
    static let day: Int64 = 86_400_000
    static let month = 30 * day
    static let p0: Int64 = 1_790_000_000_000
    static let ends = p0 + 12 * month

    static func charge(
        _ period: Int, price: Int64 = 9_990, refunded: (type: String, percentage: Int?)? = nil,
        signedLater: Bool = false
    ) -> CommitmentStatement {
        let start = p0 + Int64(period - 1) * month
        return CommitmentStatement(
            originalTransactionID: "o1", transactionID: "t\(period)", productID: "premium.yearly",
            environment: .production,
            terms: CommitmentTerms(
                billingPlanType: "MONTHLY", billingPeriodNumber: period, totalBillingPeriods: 12,
                commitmentPrice: 119_880, commitmentExpiresDate: ends),
            purchaseDate: start, expiresDate: start + month, price: Money(milliunits: price, currency: "USD"),
            revocationDate: refunded == nil ? nil : start + day, revocationType: refunded?.type,
            revocationPercentage: refunded?.percentage, signedDate: signedLater ? start + day : start)
    }

    static func lines(
        _ statements: [CommitmentStatement], asOf: Int64, notices: [AppleNotice] = [], renewsAfter: Int? = nil
    ) throws -> [CommitmentLine] {
        var renewals: [String: RenewalCommitment] = [:]
        if let renewsAfter {
            renewals["o1"] = RenewalCommitment(
                originalTransactionID: "o1", environment: .production, signedDate: p0, autoRenewStatus: 1,
                commitmentAutoRenewStatus: renewsAfter, isInBillingRetryPeriod: false)
        }
        return try Commitments.lines(
            statements: statements, renewals: renewals, notices: notices, users: { _ in ["u1"] }, asOf: asOf)
    }

    @Test func activeCommitmentLeavesTheRestUnbilledAndSaysItWillNotRenewAfter() throws {
        let line = try #require(
            try Self.lines((1...4).map { Self.charge($0) }, asOf: Self.p0 + 3 * Self.month + Self.day, renewsAfter: 0)
                .first)
        #expect(line.periodsBilled == 4)
        #expect(line.billed == 39_960)
        #expect(line.unbilled == 79_920)
        #expect(line.status == .active)
        #expect(line.renewsAfter == false)
        #expect(line.currentPeriod == 4)
        #expect(Lookup.commitmentText(line).contains("month 4 of 12, renews monthly, will not renew after"))
    }

    @Test func aChargeAfterTheAsOfIsNotBilled() throws {
        let line = try #require(try Self.lines((1...4).map { Self.charge($0) }, asOf: Self.p0 + Self.day).first)
        #expect(line.periodsBilled == 1)
        #expect(line.unbilled == 119_880 - 9_990)
    }

    @Test func aProratedRefundOfTheCurrentPeriodEndsItWithNothingUnbilled() throws {
        var statements = (1...2).map { Self.charge($0) }
        statements.append(Self.charge(2, refunded: ("REFUND_PRORATED", 50_000), signedLater: true))
        let line = try #require(try Self.lines(statements, asOf: Self.p0 + Self.month + 2 * Self.day).first)
        #expect(line.refunded == 5_000)  // 4.995 USD, half away from zero to the cent
        #expect(line.billed == 19_980)
        #expect(line.status == .ended)
        #expect(line.unbilled == 0)
    }

    @Test func aFamilyRevocationMovesNoMoney() throws {
        var statements = [Self.charge(1)]
        statements.append(Self.charge(1, refunded: ("FAMILY_REVOKE", nil), signedLater: true))
        let line = try #require(try Self.lines(statements, asOf: Self.p0 + 2 * Self.day).first)
        #expect(line.refunded == 0)
        #expect(line.status == .active)
    }

    @Test func expiredOrBillingRetryPastNinetyDaysEndsIt() throws {
        let expired = AppleNotice(
            uuid: "e", type: "EXPIRED", subtype: "BILLING_RETRY", signedDate: Self.p0 + Self.month,
            environment: .production, transactionID: "t1", originalTransactionID: "o1", productID: nil,
            externalPurchaseID: nil, appTransactionID: nil, consumptionRequestReason: nil)
        let byNotice = try #require(
            try Self.lines([Self.charge(1)], asOf: Self.p0 + Self.month + Self.day, notices: [expired]).first)
        #expect(byNotice.status == .ended)
        #expect(byNotice.unbilled == 0)
        let lapsed = try #require(try Self.lines([Self.charge(1)], asOf: Self.p0 + Self.month + 91 * Self.day).first)
        #expect(lapsed.status == .ended)
        let retrying = try #require(try Self.lines([Self.charge(1)], asOf: Self.p0 + Self.month + 89 * Self.day).first)
        #expect(retrying.status == .active)
    }

    @Test func anExpiredStatusEndsIt() throws {
        let line = try #require(
            try Commitments.lines(
                statements: [Self.charge(1)], renewals: [:], notices: [], expiredByStatus: ["o1"],
                users: { _ in [] }, asOf: Self.p0 + Self.month + Self.day
            ).first)
        #expect(line.status == .ended)
        #expect(line.unbilled == 0)
    }

    @Test func twelvePeriodsToTheEndComplete() throws {
        let line = try #require(try Self.lines((1...12).map { Self.charge($0) }, asOf: Self.ends).first)
        #expect(line.status == .completed)
        #expect(line.unbilled == 0)
        #expect(line.billed == 119_880)
    }
}

/// The `Deferred Revenue` sheet's "Contracted, not yet billed" line per currency (CONTRACT §7).
@Suite struct ContractedNotYetBilledTests {
    @Test func oneLinePerCurrencyBelowTheRollForward() {
        var report = DeferredRevenueReport()
        report.contractedNotYetBilled = ["USD": 79_920, "EUR": 109_890]
        let sheet = XLSXReportWriter.deferredRevenue(report, timeZone: "UTC")
        let lines = sheet.rows.filter { $0.cells.first == .text("Contracted, not yet billed") }
        #expect(lines.map { $0.cells[1] } == [.text("EUR"), .text("USD")])
        #expect(lines.first?.cells.last == .amount(Money(milliunits: 109_890, currency: "EUR")))
        let rollForwardHeader = sheet.rows.firstIndex { $0.cells.first == .text("Month") } ?? -1
        let first = sheet.rows.firstIndex { $0.cells.first == .text("Contracted, not yet billed") } ?? -1
        #expect(rollForwardHeader >= 0 && first > rollForwardHeader)
    }

    @Test func activeCommitmentsAddUpPerCurrency() {
        func line(_ currency: String, _ unbilled: Int64, _ status: CommitmentLine.Status) -> CommitmentLine {
            CommitmentLine(
                originalTransactionID: "o-\(currency)-\(unbilled)", userIDs: [], productID: nil, currency: currency,
                commitmentPrice: 119_880, periodsTotal: 12, periodsBilled: 1, billed: 9_990, refunded: 0,
                unbilled: unbilled, commitmentExpires: nil, status: status, renewsAfter: nil, currentPeriod: 1)
        }
        let report = AppleWordReport(commitments: [
            line("USD", 79_920, .active), line("USD", 10_000, .active), line("EUR", 0, .ended),
        ])
        #expect(report.unbilledByCurrency == ["USD": 89_920])
    }
}

/// The support lookup's words for a commitment.
@Suite struct CommitmentWordingTests {
    @Test func month4Of12RenewsMonthlyWillNotRenewAfterItsLastMonth() {
        let line = CommitmentLine(
            originalTransactionID: "o1", userIDs: ["u1"], productID: "premium.yearly", currency: "USD",
            commitmentPrice: 119_880, periodsTotal: 12, periodsBilled: 4, billed: 39_960, refunded: 0, unbilled: 79_920,
            commitmentExpires: Timestamp.parse("2027-08-01T00:00:00Z"), status: .active, renewsAfter: false,
            currentPeriod: 4)
        #expect(
            Lookup.commitmentText(line)
                == "12-month commitment o1 (119.88 USD): month 4 of 12, renews monthly, will not renew after July 2027")
        var renews = line
        renews.renewsAfter = true
        #expect(Lookup.commitmentText(renews).hasSuffix("month 4 of 12, renews monthly, renews after July 2027"))
        var ended = line
        ended.status = .ended
        #expect(Lookup.commitmentText(ended).contains("month 4 of 12, ended early"))
    }
}
