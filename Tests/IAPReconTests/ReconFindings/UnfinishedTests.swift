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

@Suite struct UnfinishedTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "delivered two days ago, never finished",
            groups: [
                Fx.group(
                    "7000000100", [Fx.row("r1", tx: "7000000100", deliveredAgo: 2 * Fx.day, finished: false)],
                    [Fx.jws("7000000100")])
            ],
            expected: [ExpectedFinding(.unfinished, "7000000100", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "delivered 90 minutes ago with a 1 h finish grace",
            groups: [
                Fx.group(
                    "7000000200", [Fx.row("r1", tx: "7000000200", deliveredAgo: 90 * Fx.minute, finished: false)],
                    [Fx.jws("7000000200")])
            ],
            context: Fx.context(finishGrace: Fx.hour),
            expected: [ExpectedFinding(.unfinished, "7000000200", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "near miss: delivered 30 minutes ago, within a 1 h grace",
            groups: [
                Fx.group(
                    "7000000300", [Fx.row("r1", tx: "7000000300", deliveredAgo: 30 * Fx.minute, finished: false)],
                    [Fx.jws("7000000300")])
            ],
            context: Fx.context(finishGrace: Fx.hour),
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "7000000400", [Fx.row("r1", tx: "7000000400", env: .sandbox, finished: false)],
                    [Fx.jws("7000000400", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
