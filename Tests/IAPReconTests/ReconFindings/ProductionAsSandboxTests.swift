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

@Suite struct ProductionAsSandboxTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "booked as Sandbox, Apple answered 21008",
            groups: [
                Fx.group(
                    "1100000100", [Fx.row("r1", tx: "1100000100", env: .sandbox)],
                    [Fx.verifyReceipt("1100000100", status: 21008, env: nil)])
            ],
            expected: [ExpectedFinding(.productionAsSandbox, "1100000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "booked as Sandbox, a verified JWS says Production",
            groups: [
                Fx.group(
                    "1100000200", [Fx.row("r1", tx: "1100000200", env: .sandbox, price: nil)],
                    [Fx.jws("1100000200", price: Fx.usd(4_990))])
            ],
            expected: [ExpectedFinding(.productionAsSandbox, "1100000200", users: ["u1"], amount: Fx.usd(4_990))]),
        DetectorCase(
            name: "booked as Sandbox, Apple confirmed an iOS 6 receipt that does not say Sandbox",
            groups: [
                Fx.group(
                    "1100000600", [Fx.row("r1", tx: "1100000600", env: .sandbox)],
                    [
                        Fx.evidence(
                            "1100000600", format: .transactionReceipt, price: nil, entryEnv: nil, signature: .notChecked
                        ),
                        Fx.verifyReceipt("1100000600", env: nil),
                    ])
            ],
            expected: [ExpectedFinding(.productionAsSandbox, "1100000600", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: an iOS 6 receipt that says Sandbox, Apple answered 0 at the sandbox endpoint",
            groups: [
                Fx.group(
                    "1100000700", [Fx.row("r1", tx: "1100000700", env: .sandbox)],
                    [
                        Fx.evidence(
                            "1100000700", format: .transactionReceipt, price: nil, entryEnv: nil, receiptEnv: .sandbox,
                            signature: .notChecked),
                        Fx.verifyReceipt("1100000700", env: nil),
                    ])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: only an unverified offline JWS claims Production",
            groups: [
                Fx.group(
                    "1100000300", [Fx.row("r1", tx: "1100000300", env: .sandbox)],
                    [Fx.jws("1100000300", signature: .notChecked)])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: another row of the transaction already books it as Production",
            groups: [
                Fx.group(
                    "1100000400",
                    [Fx.row("r1", tx: "1100000400"), Fx.row("r2", tx: "1100000400", env: .sandbox)],
                    [Fx.jws("1100000400")])
            ],
            expected: [ExpectedFinding(.duplicateRecord, "1100000400", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "1100000500", [Fx.row("r1", tx: "1100000500", env: .sandbox)],
                    [Fx.jws("1100000500", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
