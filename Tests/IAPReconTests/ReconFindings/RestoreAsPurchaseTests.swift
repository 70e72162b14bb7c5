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

@Suite struct RestoreAsPurchaseTests {
    static func premium(
        _ record: String, tx: String, user: String = "u1", ago: Int64, env: StoreEnvironment = .production,
        price: Money? = Fx.usd(4_990), status: VerificationStatus = .verified
    ) -> LedgerTransaction {
        Fx.row(
            record, tx: tx, user: user, product: "premium", original: "4000000000", ago: ago, env: env,
            price: price, status: status)
    }

    static func chain(_ rows: LedgerTransaction...) -> [OriginalTransactionGroup] {
        [OriginalTransactionGroup(originalTransactionID: "4000000000", records: rows)]
    }

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a restore booked as new revenue after the purchase",
            originals: chain(
                premium("r1", tx: "4000000000", ago: 30 * Fx.day), premium("r2", tx: "4000000001", ago: Fx.day)),
            expected: [ExpectedFinding(.restoreAsPurchase, "4000000001", users: ["u1"], amount: Fx.usd(4_990))]),
        DetectorCase(
            name: "two restores booked while the purchase predates the ledger",
            originals: chain(
                premium("r2", tx: "4000000001", ago: 9 * Fx.day), premium("r3", tx: "4000000002", ago: Fx.day)),
            expected: [ExpectedFinding(.restoreAsPurchase, "4000000002", users: ["u1"], amount: Fx.usd(4_990))]),
        DetectorCase(
            name: "near miss: the purchase is not booked as revenue (Sandbox), so the restore is the only booking",
            originals: chain(
                premium("r1", tx: "4000000000", ago: 30 * Fx.day, env: .sandbox),
                premium("r2", tx: "4000000001", ago: Fx.day)),
            expected: []),
        DetectorCase(
            name: "near miss: the purchase was marked invalid",
            originals: chain(
                premium("r1", tx: "4000000000", ago: 30 * Fx.day, status: .invalid),
                premium("r2", tx: "4000000001", ago: Fx.day)),
            expected: []),
        DetectorCase(
            name: "near miss: the restore is recorded at price 0",
            originals: chain(
                premium("r1", tx: "4000000000", ago: 30 * Fx.day),
                premium("r2", tx: "4000000001", ago: Fx.day, price: Fx.usd(0))),
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
