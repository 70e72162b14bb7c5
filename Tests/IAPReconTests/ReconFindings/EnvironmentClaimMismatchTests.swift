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

@Suite struct EnvironmentClaimMismatchTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "claimed Production, the receipt says Sandbox",
            receipts: [
                Fx.receipt(
                    "rc1", uploader: "u1", claimed: .production, decodedEnv: .sandbox,
                    records: [Fx.row("r1", tx: "1200000100", user: "u2", env: .sandbox, receipt: "rc1")])
            ],
            expected: [ExpectedFinding(.environmentClaimMismatch, "1200000100", users: ["u1", "u2"], amount: nil)]),
        DetectorCase(
            name: "claimed Sandbox, Apple answered 21008",
            receipts: [
                Fx.receipt(
                    "rc2", claimed: .sandbox, decodedEnv: nil, entries: [EvidenceEntry(transactionID: "1200000200")],
                    appleStatus: 21008)
            ],
            expected: [ExpectedFinding(.environmentClaimMismatch, "1200000200", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "near miss: claimed Sandbox for an Xcode receipt",
            receipts: [Fx.receipt("rc3", claimed: .sandbox, decodedEnv: .xcode)],
            expected: []),
        DetectorCase(
            name: "near miss: claimed Production, and it is",
            receipts: [Fx.receipt("rc4", claimed: .production, decodedEnv: .production, appleEnv: .production)],
            expected: []),
        DetectorCase(
            name: "near miss: no claim",
            receipts: [Fx.receipt("rc5", decodedEnv: .sandbox)],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func filedUnderTheReceiptWhenNothingElseNamesATransaction() throws {
        let findings = Detection.run(
            groups: [], receipts: [Fx.receipt("rc9", claimed: .production, decodedEnv: .sandbox)], context: Fx.context()
        )
        let finding = try #require(findings.first)
        #expect(finding.transactionID == "rc9")
        #expect(finding.receiptID == "rc9")
        #expect(finding.severity == .low)
    }
}
