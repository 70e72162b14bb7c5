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

@Suite struct StuckPendingTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "pending for two days, not delivered, nothing from Apple",
            groups: [
                Fx.group(
                    "8000000100", [Fx.row("r1", tx: "8000000100", ago: 2 * Fx.day, status: .pending, delivered: false)])
            ],
            expected: [ExpectedFinding(.stuckPending, "8000000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "pending past a 6 h limit",
            groups: [
                Fx.group(
                    "8000000200", [Fx.row("r1", tx: "8000000200", ago: 7 * Fx.hour, status: .pending, delivered: false)]
                )
            ],
            context: Fx.context(pendingLimit: 6 * Fx.hour),
            expected: [ExpectedFinding(.stuckPending, "8000000200", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: pending for two hours",
            groups: [
                Fx.group(
                    "8000000300", [Fx.row("r1", tx: "8000000300", ago: 2 * Fx.hour, status: .pending, delivered: false)]
                )
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "8000000400", [Fx.row("r1", tx: "8000000400", env: .sandbox, status: .pending, delivered: false)],
                    [Fx.offlineReceipt("8000000400", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
