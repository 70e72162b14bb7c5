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

@Suite struct PriceMismatchTests {
    static let euro = Money(milliunits: 9_990, currency: "EUR")

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "recorded 8.99, Apple charged 9.99",
            groups: [
                Fx.group("1900000100", [Fx.row("r1", tx: "1900000100", price: Fx.usd(8_990))], [Fx.jws("1900000100")])
            ],
            expected: [ExpectedFinding(.priceMismatch, "1900000100", users: ["u1"], amount: Fx.usd(1_000))]),
        DetectorCase(
            name: "recorded in EUR, Apple charged USD: a mismatch without a single amount",
            groups: [Fx.group("1900000200", [Fx.row("r1", tx: "1900000200", price: euro)], [Fx.jws("1900000200")])],
            expected: [ExpectedFinding(.priceMismatch, "1900000200", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "no Apple price: the storefront's catalog price, times quantity",
            groups: [
                Fx.group(
                    "1900000300", [Fx.row("r1", tx: "1900000300", quantity: 2, price: Fx.usd(7_990))],
                    [Fx.verifyReceipt("1900000300", quantity: 2)])
            ],
            expected: [ExpectedFinding(.priceMismatch, "1900000300", users: ["u1"], amount: Fx.usd(4_000))]),
        DetectorCase(
            name: "the storefront's own catalog row in another currency",
            groups: [
                Fx.group(
                    "1900000400", [Fx.row("r1", tx: "1900000400", storefront: "JPN")], [Fx.verifyReceipt("1900000400")])
            ],
            expected: [ExpectedFinding(.priceMismatch, "1900000400", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "near miss: a storefront without a catalog row is not compared across currencies",
            groups: [
                Fx.group(
                    "1900000500", [Fx.row("r1", tx: "1900000500", price: euro, storefront: "DEU")],
                    [Fx.verifyReceipt("1900000500")])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: the price Apple charged",
            groups: [Fx.clean("1900000600")],
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox row with Sandbox evidence",
            groups: [
                Fx.group(
                    "1900000700", [Fx.row("r1", tx: "1900000700", env: .sandbox, price: Fx.usd(1))],
                    [Fx.jws("1900000700", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
