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

@Suite struct SandboxInProductionTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "Apple answered 21007 for a row booked as Production",
            groups: [
                Fx.group(
                    "9000000100", [Fx.row("r1", tx: "9000000100")],
                    [Fx.verifyReceipt("9000000100", status: 21007, env: nil)])
            ],
            expected: [ExpectedFinding(.sandboxInProduction, "9000000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "an unverified JWS says Xcode",
            groups: [
                Fx.group(
                    "9000000200", [Fx.row("r1", tx: "9000000200")],
                    [Fx.jws("9000000200", env: .xcode, signature: .notChecked)])
            ],
            expected: [ExpectedFinding(.sandboxInProduction, "9000000200", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "an app receipt of type ProductionSandbox, duplicated rows all count",
            groups: [
                Fx.group(
                    "9000000300", [Fx.row("r1", tx: "9000000300"), Fx.row("r2", tx: "9000000300", user: "u2")],
                    [Fx.offlineReceipt("9000000300", env: .sandbox, signature: .verified)])
            ],
            expected: [
                ExpectedFinding(.sandboxInProduction, "9000000300", users: ["u1", "u2"], amount: Fx.usd(19_980))
            ]),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "9000000400", [Fx.row("r1", tx: "9000000400", env: .sandbox)],
                    [Fx.verifyReceipt("9000000400", env: .sandbox)])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: Apple's Production answer outweighs an unverified Sandbox claim",
            groups: [
                Fx.group(
                    "9000000500", [Fx.row("r1", tx: "9000000500")],
                    [Fx.offlineReceipt("9000000500", env: .sandbox), Fx.verifyReceipt("9000000500")])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func findingCarriesTheEvidenceEnvironment() throws {
        let finding = try #require(Self.cases[1].run().first)
        #expect(finding.environment == .xcode)
        #expect(finding.detail.contains("says Xcode"))
    }
}
