import Foundation
import Testing

@testable import ReconFindings
@testable import ReconLookup
@testable import ReconModel

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

    @Test func twelvePeriodsToTheEndComplete() throws {
        let line = try #require(try Self.lines((1...12).map { Self.charge($0) }, asOf: Self.ends).first)
        #expect(line.status == .completed)
        #expect(line.unbilled == 0)
        #expect(line.billed == 119_880)
    }
}
