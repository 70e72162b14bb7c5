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

@Suite struct DeliveredUnverifiedTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "delivered although verification said invalid",
            groups: [Fx.group("6000000100", [Fx.row("r1", tx: "6000000100", status: .invalid)])],
            expected: [ExpectedFinding(.deliveredUnverified, "6000000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "delivered although verification ended in an error",
            groups: [
                Fx.group(
                    "6000000200", [Fx.row("r1", tx: "6000000200", status: .error)], [Fx.offlineReceipt("6000000200")])
            ],
            expected: [ExpectedFinding(.deliveredUnverified, "6000000200", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "delivered and still pending two days later: one finding, not also stuck",
            groups: [Fx.group("6000000300", [Fx.row("r1", tx: "6000000300", ago: 2 * Fx.day, status: .pending)])],
            expected: [ExpectedFinding(.deliveredUnverified, "6000000300", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: delivered and pending for two hours, within the limit",
            groups: [Fx.group("6000000400", [Fx.row("r1", tx: "6000000400", ago: 2 * Fx.hour, status: .pending)])],
            expected: []),
        DetectorCase(
            name: "near miss: pending for two days but Apple confirmed it: only the status is stuck",
            groups: [
                Fx.group(
                    "6000000500", [Fx.row("r1", tx: "6000000500", ago: 2 * Fx.day, status: .pending)],
                    [Fx.verifyReceipt("6000000500")])
            ],
            expected: [ExpectedFinding(.stuckPending, "6000000500", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: marked invalid after Apple refunded it (delivered while it was valid)",
            groups: [
                Fx.group(
                    "6000000700", [Fx.row("r1", tx: "6000000700", status: .invalid)],
                    [Fx.serverAPI("6000000700") { $0.cancellationDate = Fx.asOf - Fx.hour }])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "6000000600", [Fx.row("r1", tx: "6000000600", env: .sandbox, status: .invalid)],
                    [Fx.jws("6000000600", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
