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

@Suite struct UnknownProductTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a product the catalog does not list",
            groups: [
                Fx.group(
                    "1800000100", [Fx.row("r1", tx: "1800000100", product: "mystery", price: Fx.usd(1_990))],
                    [Fx.jws("1800000100", product: "mystery", price: Fx.usd(1_990))])
            ],
            expected: [ExpectedFinding(.unknownProduct, "1800000100", users: ["u1"], amount: Fx.usd(1_990))]),
        DetectorCase(
            name: "without a recorded price, Apple's price values it",
            groups: [
                Fx.group(
                    "1800000200", [Fx.row("r1", tx: "1800000200", product: "mystery", price: nil)],
                    [Fx.jws("1800000200", product: "mystery", price: Fx.usd(2_990))])
            ],
            expected: [ExpectedFinding(.unknownProduct, "1800000200", users: ["u1"], amount: Fx.usd(2_990))]),
        DetectorCase(
            name: "near miss: no catalog loaded",
            groups: [
                Fx.group(
                    "1800000300", [Fx.row("r1", tx: "1800000300", product: "mystery")],
                    [Fx.jws("1800000300", product: "mystery")])
            ],
            context: Fx.context(catalog: [:]),
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox test of a product not in the catalog yet",
            groups: [
                Fx.group(
                    "1800000400", [Fx.row("r1", tx: "1800000400", product: "mystery", env: .sandbox)],
                    [Fx.jws("1800000400", product: "mystery", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
