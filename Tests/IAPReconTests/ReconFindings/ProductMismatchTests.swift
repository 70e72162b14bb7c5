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

@Suite struct ProductMismatchTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "delivered gems500 for a gems100 purchase (not also a price mismatch)",
            groups: [
                Fx.group(
                    "1500000100", [Fx.row("r1", tx: "1500000100", product: "gems500", price: Fx.usd(49_990))],
                    [Fx.jws("1500000100")])
            ],
            expected: [ExpectedFinding(.productMismatch, "1500000100", users: ["u1"], amount: Fx.usd(40_000))]),
        DetectorCase(
            name: "delivered three for a quantity of one",
            groups: [
                Fx.group("1500000200", [Fx.row("r1", tx: "1500000200", quantity: 3)], [Fx.verifyReceipt("1500000200")])
            ],
            expected: [ExpectedFinding(.productMismatch, "1500000200", users: ["u1"], amount: Fx.usd(19_980))]),
        DetectorCase(
            name: "near miss: an unverified receipt disagrees, Apple's answer agrees",
            groups: [
                Fx.group(
                    "1500000300", [Fx.row("r1", tx: "1500000300")],
                    [Fx.offlineReceipt("1500000300", product: "gems500"), Fx.verifyReceipt("1500000300")])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "1500000400", [Fx.row("r1", tx: "1500000400", product: "gems500", env: .sandbox)],
                    [Fx.jws("1500000400", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
