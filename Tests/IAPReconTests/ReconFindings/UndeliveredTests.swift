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

@Suite struct UndeliveredTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "verified three hours ago, never delivered",
            groups: [
                Fx.group(
                    "5000000100", [Fx.row("r1", tx: "5000000100", ago: 3 * Fx.hour, delivered: false)],
                    [Fx.jws("5000000100")])
            ],
            expected: [ExpectedFinding(.undelivered, "5000000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "still pending in the ledger but Apple answered 0: undelivered, not stuck",
            groups: [
                Fx.group(
                    "5000000200",
                    [Fx.row("r1", tx: "5000000200", ago: 2 * Fx.day, status: .pending, delivered: false)],
                    [Fx.verifyReceipt("5000000200")])
            ],
            expected: [ExpectedFinding(.undelivered, "5000000200", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "verified in the ledger with no evidence at all",
            groups: [Fx.group("5000000300", [Fx.row("r1", tx: "5000000300", ago: 2 * Fx.hour, delivered: false)])],
            expected: [ExpectedFinding(.undelivered, "5000000300", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: purchased 30 minutes ago, within the 1 h grace",
            groups: [
                Fx.group(
                    "5000000400", [Fx.row("r1", tx: "5000000400", ago: 30 * Fx.minute, delivered: false)],
                    [Fx.jws("5000000400")])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: refunded, so nothing is owed (but the ledger still counts it)",
            groups: [
                Fx.group(
                    "5000000500", [Fx.row("r1", tx: "5000000500", ago: 2 * Fx.day, delivered: false)],
                    [Fx.serverAPI("5000000500") { $0.cancellationDate = Fx.asOf - Fx.day }])
            ],
            expected: [ExpectedFinding(.refundedDelivered, "5000000500", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: one of two duplicate rows was delivered",
            groups: [
                Fx.group(
                    "5000000600",
                    [Fx.row("r1", tx: "5000000600"), Fx.row("r2", tx: "5000000600", delivered: false)],
                    [Fx.jws("5000000600")])
            ],
            expected: [ExpectedFinding(.duplicateRecord, "5000000600", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "5000000700", [Fx.row("r1", tx: "5000000700", env: .sandbox, delivered: false)],
                    [Fx.jws("5000000700", env: .sandbox)])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: pending without Apple's confirmation is only stuck",
            groups: [
                Fx.group(
                    "5000000800", [Fx.row("r1", tx: "5000000800", ago: 2 * Fx.day, status: .pending, delivered: false)],
                    [Fx.offlineReceipt("5000000800")])
            ],
            expected: [ExpectedFinding(.stuckPending, "5000000800", users: ["u1"], amount: Fx.usd(9_990))]),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
