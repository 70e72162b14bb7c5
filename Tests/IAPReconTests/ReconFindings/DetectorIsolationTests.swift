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

/// Each detector on its own, with no other detector running: it fires on its own minimal case
/// (the first case of its table that expects its code) and stays silent on its first near miss.
///
/// The per-detector tables run every detector together and so also prove that nothing else
/// fires; these checks prove each rule carries its own finding without help from another.
@Suite struct DetectorIsolationTests {
    static let tables: [FindingCode: [DetectorCase]] = [
        .duplicateRecord: DuplicateRecordTests.cases,
        .sharedTransaction: SharedTransactionTests.cases,
        .restoreAsPurchase: RestoreAsPurchaseTests.cases,
        .undelivered: UndeliveredTests.cases,
        .deliveredUnverified: DeliveredUnverifiedTests.cases,
        .unfinished: UnfinishedTests.cases,
        .stuckPending: StuckPendingTests.cases,
        .sandboxInProduction: SandboxInProductionTests.cases,
        .productionAsSandbox: ProductionAsSandboxTests.cases,
        .environmentClaimMismatch: EnvironmentClaimMismatchTests.cases,
        .invalidReceipt: InvalidReceiptTests.cases,
        .bundleMismatch: BundleMismatchTests.cases,
        .productMismatch: ProductMismatchTests.cases,
        .refundedDelivered: RefundedDeliveredTests.cases,
        .missingRecord: MissingRecordTests.cases,
        .unknownProduct: UnknownProductTests.cases,
        .priceMismatch: PriceMismatchTests.cases,
        .salesReportMismatch: SalesReportMismatchTests.cases,
        .financialReportMismatch: FinancialReportMismatchTests.cases,
        .paymentMismatch: PaymentMismatchTests.cases,
        .paidNotEntitled: SubscriptionFindingsTests.paidNotEntitled,
        .entitledNotPaid: SubscriptionFindingsTests.entitledNotPaid,
        .entitlementExpiryMismatch: SubscriptionFindingsTests.expiryMismatch,
        .consumptionUnanswered: AppleWordFindingTests.consumptionUnanswered,
        .externalPurchaseUnreported: AppleWordFindingTests.externalPurchaseUnreported,
        .consentRescinded: AppleWordFindingTests.consentRescinded,
    ]

    /// Only the detectors of `code` (a code may be checked per transaction and per receipt).
    static func only(_ code: FindingCode) -> DetectorSet {
        let all = DetectorSet.all
        return DetectorSet(
            transaction: all.transaction.filter { $0.code == code }, original: all.original.filter { $0.code == code },
            receipt: all.receipt.filter { $0.code == code }, sales: all.sales.filter { $0.code == code },
            financial: all.financial.filter { $0.code == code }, payment: all.payment.filter { $0.code == code },
            subscription: all.subscription.filter { $0.code == code },
            consumption: all.consumption.filter { $0.code == code },
            externalPurchase: all.externalPurchase.filter { $0.code == code },
            consent: all.consent.filter { $0.code == code })
    }

    static func findings(of code: FindingCode, _ testCase: DetectorCase) -> [ExpectedFinding] {
        testCase.run(detectors: only(code)).map(ExpectedFinding.init).sorted()
    }

    @Test(arguments: FindingCode.allCases)
    func firesAloneOnItsOwnCaseAndNotOnANearMiss(_ code: FindingCode) throws {
        let cases = try #require(Self.tables[code], "no case table for \(code)")
        let own = try #require(cases.first { $0.expected.contains { $0.code == code } }, "no case expects \(code)")
        let nearMiss = try #require(cases.first { $0.name.hasPrefix("near miss") }, "no near miss for \(code)")
        let expected = own.expected.filter { $0.code == code }.sorted()
        #expect(Self.findings(of: code, own) == expected, "\(code): \(own.name)")
        #expect(nearMiss.expected.allSatisfy { $0.code != code }, "\(code): \(nearMiss.name)")
        #expect(Self.findings(of: code, nearMiss).isEmpty, "\(code): \(nearMiss.name)")
    }
}
