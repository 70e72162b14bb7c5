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

@Suite struct SharedTransactionTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a replayed receipt credits the same transaction to a second user",
            groups: [
                Fx.group(
                    "3000000100",
                    [
                        Fx.row("r1", tx: "3000000100", user: "alice", ago: 3 * Fx.day),
                        Fx.row("r2", tx: "3000000100", user: "mallory", ago: 2 * Fx.day),
                    ],
                    [Fx.jws("3000000100", uploader: "alice"), Fx.jws("3000000100", uploader: "mallory")])
            ],
            expected: [
                ExpectedFinding(.sharedTransaction, "3000000100", users: ["alice", "mallory"], amount: Fx.usd(9_990)),
                ExpectedFinding(.duplicateRecord, "3000000100", users: ["alice", "mallory"], amount: Fx.usd(9_990)),
            ]),
        DetectorCase(
            name: "a subscription's renewals credited to another user",
            originals: [
                OriginalTransactionGroup(
                    originalTransactionID: "3000000200",
                    records: [
                        Fx.row(
                            "r1", tx: "3000000200", user: "alice", product: "monthly", ago: 40 * Fx.day,
                            price: Fx.usd(2_990)),
                        Fx.row(
                            "r2", tx: "3000000201", user: "bob", product: "monthly", original: "3000000200",
                            ago: 10 * Fx.day, price: Fx.usd(2_990)),
                    ])
            ],
            expected: [
                ExpectedFinding(.sharedTransaction, "3000000200", users: ["alice", "bob"], amount: Fx.usd(2_990))
            ]),
        DetectorCase(
            name: "a non-consumable restored to another user is shared, and the restore booked as revenue",
            originals: [
                OriginalTransactionGroup(
                    originalTransactionID: "3000000300",
                    records: [
                        Fx.row(
                            "r1", tx: "3000000300", user: "alice", product: "premium", ago: 9 * Fx.day,
                            price: Fx.usd(4_990)),
                        Fx.row(
                            "r2", tx: "3000000301", user: "bob", product: "premium", original: "3000000300",
                            price: Fx.usd(4_990)),
                    ])
            ],
            expected: [
                ExpectedFinding(.sharedTransaction, "3000000300", users: ["alice", "bob"], amount: Fx.usd(4_990)),
                ExpectedFinding(.restoreAsPurchase, "3000000301", users: ["alice", "bob"], amount: Fx.usd(4_990)),
            ]),
        DetectorCase(
            name: "near miss: renewals of one user's subscription",
            originals: [
                OriginalTransactionGroup(
                    originalTransactionID: "3000000400",
                    records: [
                        Fx.row("r1", tx: "3000000400", product: "monthly", ago: 40 * Fx.day, price: Fx.usd(2_990)),
                        Fx.row(
                            "r2", tx: "3000000401", product: "monthly", original: "3000000400", ago: 10 * Fx.day,
                            price: Fx.usd(2_990)),
                    ])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: the second user's replay was rejected as invalid",
            groups: [
                Fx.group(
                    "3000000500",
                    [
                        Fx.row("r1", tx: "3000000500", user: "alice"),
                        Fx.row("r2", tx: "3000000500", user: "mallory", status: .invalid, delivered: false),
                    ],
                    [Fx.jws("3000000500")])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a product the catalog does not know cannot be judged by original id",
            originals: [
                OriginalTransactionGroup(
                    originalTransactionID: "3000000600",
                    records: [
                        Fx.row("r1", tx: "3000000600", user: "alice", product: "mystery"),
                        Fx.row("r2", tx: "3000000601", user: "bob", product: "mystery", original: "3000000600"),
                    ])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: a shared transaction id is not reported again by original id",
            originals: [
                OriginalTransactionGroup(
                    originalTransactionID: "3000000700",
                    records: [
                        Fx.row("r1", tx: "3000000700", user: "alice", product: "premium", price: Fx.usd(4_990)),
                        Fx.row(
                            "r2", tx: "3000000700", user: "bob", product: "premium", ago: Fx.day, price: Fx.usd(4_990)),
                    ])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func originalFindingIsFiledUnderTheEarliestRow() throws {
        let finding = try #require(Self.cases[1].run().first)
        #expect(finding.transactionID == "3000000200")
        #expect(finding.originalTransactionID == "3000000200")
        #expect(finding.recordIDs == ["r1", "r2"])
    }
}
