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

/// `PAID_NOT_ENTITLED`, `ENTITLED_NOT_PAID` and `ENTITLEMENT_EXPIRY_MISMATCH`: the backend's entitlement beside
/// Apple's status of the subscription (https://developer.apple.com/documentation/appstoreserverapi/status: 1 active,
/// 2 expired, 3 billing retry, 4 billing grace period, 5 revoked), or Apple's signed transactions where no status
/// answer is stored.
@Suite struct SubscriptionFindingsTests {
    static let hour = Fx.hour
    static let day = Fx.day

    static func entitlement(_ original: String, expiresIn: Int64, user: String = "u1") -> Entitlement {
        Entitlement(
            userID: user, originalTransactionID: original, productID: "monthly", expiresAt: Fx.asOf + expiresIn)
    }

    /// Apple's answer in this run (learned at the as-of).
    static func status(
        _ original: String, _ code: SubscriptionStatus.Code, expiresIn: Int64, graceIn: Int64? = nil
    ) -> SubscriptionStatus {
        SubscriptionStatus(
            originalTransactionID: original, environment: .production, status: code, productID: "monthly",
            expiresDate: Fx.asOf + expiresIn, gracePeriodExpiresDate: graceIn.map { Fx.asOf + $0 }, autoRenew: true,
            price: Fx.usd(2_990), learnedAt: Fx.asOf)
    }

    /// A renewal Apple signed (a Server API transaction) whose period ends `expiresIn` from the as-of.
    static func renewal(_ original: String, expiresIn: Int64, revoked: Bool = false) -> EvidenceRecord {
        Fx.serverAPI(original + "9", product: "monthly", price: Fx.usd(2_990), recordedAt: Fx.asOf - day) { entry in
            entry.originalTransactionID = original
            entry.purchaseDate = Fx.asOf + expiresIn - 30 * day
            entry.expiresDate = Fx.asOf + expiresIn
            if revoked { entry.cancellationDate = Fx.asOf - hour }
        }
    }

    static func finding(_ code: FindingCode, _ original: String, amount: Money?) -> ExpectedFinding {
        ExpectedFinding(code, original, users: ["u1"], amount: amount)
    }

    static let paidNotEntitled: [DetectorCase] = [
        DetectorCase(
            name: "Apple renewed (status 1), the backend let access lapse yesterday",
            subscriptions: .init(
                entitlements: [entitlement("3000000100", expiresIn: -day)],
                statuses: [status("3000000100", .active, expiresIn: 29 * day)]),
            expected: [finding(.paidNotEntitled, "3000000100", amount: Fx.usd(2_990))]),
        DetectorCase(
            name: "in the billing grace period (status 4) Apple keeps access: the backend ended it",
            subscriptions: .init(
                entitlements: [entitlement("3000000101", expiresIn: -2 * hour)],
                statuses: [status("3000000101", .billingGracePeriod, expiresIn: -2 * hour, graceIn: 5 * day)]),
            expected: [finding(.paidNotEntitled, "3000000101", amount: Fx.usd(2_990))]),
        DetectorCase(
            name: "a renewal only Apple's signed transactions show (no status answer stored)",
            subscriptions: .init(
                entitlements: [entitlement("3000000102", expiresIn: -3 * day)],
                evidence: [renewal("3000000102", expiresIn: 27 * day)]),
            expected: [finding(.paidNotEntitled, "3000000102", amount: Fx.usd(2_990))]),
        DetectorCase(
            name: "near miss: billing retry without grace (status 3) is no finding either way",
            subscriptions: .init(
                entitlements: [entitlement("3000000103", expiresIn: -day)],
                statuses: [status("3000000103", .billingRetry, expiresIn: -day)]),
            expected: []),
    ]

    static let entitledNotPaid: [DetectorCase] = [
        DetectorCase(
            name: "Apple says expired (status 2, no grace left), the backend still grants access",
            subscriptions: .init(
                entitlements: [entitlement("3000000200", expiresIn: 20 * day)],
                statuses: [status("3000000200", .expired, expiresIn: -10 * day)]),
            expected: [finding(.entitledNotPaid, "3000000200", amount: Fx.usd(2_990))]),
        DetectorCase(
            name: "Apple refunded the latest period (revocationDate), the backend still grants access",
            subscriptions: .init(
                entitlements: [entitlement("3000000201", expiresIn: 20 * day)],
                evidence: [renewal("3000000201", expiresIn: 20 * day, revoked: true)]),
            expected: [finding(.entitledNotPaid, "3000000201", amount: Fx.usd(2_990))]),
        DetectorCase(
            name: "near miss: both expired",
            subscriptions: .init(
                entitlements: [entitlement("3000000202", expiresIn: -10 * day)],
                statuses: [status("3000000202", .expired, expiresIn: -10 * day)]),
            expected: []),
        DetectorCase(
            name: "near miss: no evidence of Apple's at all is never judged",
            subscriptions: .init(entitlements: [entitlement("3000000203", expiresIn: 20 * day)]),
            expected: []),
    ]

    static let expiryMismatch: [DetectorCase] = [
        DetectorCase(
            name: "both active, the backend's expiry three days after Apple's",
            subscriptions: .init(
                entitlements: [entitlement("3000000300", expiresIn: 13 * day)],
                statuses: [status("3000000300", .active, expiresIn: 10 * day)]),
            expected: [finding(.entitlementExpiryMismatch, "3000000300", amount: nil)]),
        DetectorCase(
            name: "near miss: both active, a few hours apart",
            subscriptions: .init(
                entitlements: [entitlement("3000000301", expiresIn: 10 * day + 3 * hour)],
                statuses: [status("3000000301", .active, expiresIn: 10 * day)]),
            expected: []),
    ]

    @Test(arguments: paidNotEntitled + entitledNotPaid + expiryMismatch)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    /// An answer learned before the as-of is aged: a period that has ended since is expired, unless Apple's signed
    /// transactions know a later one.
    @Test func anEarlierAnswerIsAgedToTheAsOf() throws {
        let comparison = SubscriptionComparison(
            context: Fx.context(), lookbackMillis: 60 * Self.day, toleranceMillis: Self.day)
        var old = Self.status("3000000400", .active, expiresIn: -Self.day)
        old.learnedAt = Fx.asOf - 20 * Self.day
        let aged = comparison.view(status: old, evidence: [])
        #expect(aged?.status == .expired)
        #expect(aged?.evidence == "Apple's subscription status of \(Timestamp.iso(old.learnedAt).prefix(10))")
        let renewed = comparison.view(status: old, evidence: [Self.renewal("3000000400", expiresIn: 29 * Self.day)])
        #expect(renewed?.status == .active)
        #expect(renewed?.evidence == "the App Store Server API")
    }

    /// The detail says who, what and why, in one line.
    @Test func theDetailsNameTheSubscriptionTheUserAndBothDates() throws {
        let findings = Self.paidNotEntitled[0].run()
        let detail = try #require(findings.first?.detail)
        #expect(detail.hasPrefix("Apple says subscription 3000000100 (monthly) is active until "))
        #expect(detail.contains("(subscription-status), but the backend's access for user u1 ended "))
        #expect(detail.hasSuffix(": a paying customer without access"))
    }
}
