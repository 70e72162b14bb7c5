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

@Suite struct MissingRecordTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "Apple answered 0 for a Production purchase the ledger never recorded",
            groups: [Fx.group("1700000100", [], [Fx.verifyReceipt("1700000100", uploader: "u7")])],
            expected: [ExpectedFinding(.missingRecord, "1700000100", users: ["u7"], amount: Fx.usd(9_990))]),
        DetectorCase(
            // Apple's `price` is "the total amount of the transaction for the quantity the customer
            // purchased": 2 × 4.99 is stated as 9.98, and is not multiplied again.
            name: "a verified JWS states its price as the total for its quantity",
            groups: [
                Fx.group(
                    "1700000200", [],
                    [Fx.evidence("1700000200", quantity: 2, price: Fx.usd(9_980), uploader: "u8")])
            ],
            expected: [ExpectedFinding(.missingRecord, "1700000200", users: ["u8"], amount: Fx.usd(9_980))]),
        DetectorCase(
            name: "a Server API answer without uploader",
            groups: [Fx.group("1700000300", [], [Fx.serverAPI("1700000300")])],
            expected: [ExpectedFinding(.missingRecord, "1700000300", users: [], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: only unverified offline evidence claims a Production purchase",
            groups: [Fx.group("1700000400", [], [Fx.offlineReceipt("1700000400")])],
            expected: []),
        DetectorCase(
            name: "near miss: refunded",
            groups: [
                Fx.group("1700000500", [], [Fx.serverAPI("1700000500") { $0.cancellationDate = Fx.asOf - Fx.day }])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a Sandbox purchase",
            groups: [Fx.group("1700000600", [], [Fx.verifyReceipt("1700000600", env: .sandbox)])],
            expected: []),
        DetectorCase(
            name: "near miss: a family-shared copy",
            groups: [
                Fx.group("1700000700", [], [Fx.serverAPI("1700000700") { $0.inAppOwnershipType = "FAMILY_SHARED" }])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a Production answer without environment proof from a verified app receipt",
            groups: [Fx.group("1700000800", [], [Fx.offlineReceipt("1700000800", env: nil, signature: .verified)])],
            expected: []),
        DetectorCase(
            name: "near miss: a renewal older than --ledger-start (the ledger did not exist yet)",
            groups: [Fx.group("1700000900", [], [Fx.serverAPI("1700000900")])],
            context: Self.ledgerStarting(Fx.asOf - 2 * Fx.day), expected: []),
        DetectorCase(
            name: "a purchase after --ledger-start is still missing",
            groups: [Fx.group("1700001000", [], [Fx.serverAPI("1700001000")])],
            context: Self.ledgerStarting(Fx.asOf - 4 * Fx.day),
            expected: [ExpectedFinding(.missingRecord, "1700001000", users: [], amount: Fx.usd(9_990))]),
    ]

    static func ledgerStarting(_ start: Int64) -> DetectionContext {
        var context = Fx.context()
        context.ledgerStart = start
        return context
    }

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
