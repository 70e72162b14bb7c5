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

@Suite struct DuplicateRecordTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "three rows for one transaction and one user",
            groups: [
                Fx.group(
                    "2000000123",
                    [Fx.row("r1", tx: "2000000123"), Fx.row("r2", tx: "2000000123"), Fx.row("r3", tx: "2000000123")],
                    [Fx.jws("2000000123")])
            ],
            expected: [ExpectedFinding(.duplicateRecord, "2000000123", users: ["u1"], amount: Fx.usd(19_980))]),
        DetectorCase(
            name: "one transaction to two users is also shared",
            groups: [
                Fx.group(
                    "2000000200",
                    [Fx.row("r1", tx: "2000000200", user: "alice"), Fx.row("r2", tx: "2000000200", user: "bob")],
                    [Fx.jws("2000000200")])
            ],
            expected: [
                ExpectedFinding(.duplicateRecord, "2000000200", users: ["alice", "bob"], amount: Fx.usd(9_990)),
                ExpectedFinding(.sharedTransaction, "2000000200", users: ["alice", "bob"], amount: Fx.usd(9_990)),
            ]),
        DetectorCase(
            name: "a row without price is valued from Apple's price, then the catalog",
            groups: [
                Fx.group(
                    "2000000300",
                    [
                        Fx.row("r1", tx: "2000000300"), Fx.row("r2", tx: "2000000300", price: nil),
                        Fx.row("r3", tx: "2000000300", price: nil),
                    ],
                    [Fx.verifyReceipt("2000000300")])
            ],
            expected: [ExpectedFinding(.duplicateRecord, "2000000300", users: ["u1"], amount: Fx.usd(19_980))]),
        DetectorCase(
            name: "near miss: a consumable bought twice by one user with two transaction ids",
            groups: [Fx.clean("2000000401", record: "r1"), Fx.clean("2000000402", record: "r2")],
            expected: []),
        DetectorCase(
            name: "near miss: the second row was rejected as invalid and never delivered",
            groups: [
                Fx.group(
                    "2000000500",
                    [
                        Fx.row("r1", tx: "2000000500"),
                        Fx.row("r2", tx: "2000000500", status: .invalid, delivered: false),
                    ],
                    [Fx.jws("2000000500")])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: sandbox rows with sandbox evidence are tests",
            groups: [
                Fx.group(
                    "2000000600",
                    [Fx.row("r1", tx: "2000000600", env: .sandbox), Fx.row("r2", tx: "2000000600", env: .sandbox)],
                    [Fx.jws("2000000600", env: .sandbox)])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func detailNamesRecordsAndExtraValue() {
        let findings = Self.cases[0].run()
        #expect(
            findings.first?.detail
                == "Transaction 2000000123 is recorded 3 times (records r1, r2, r3); 2 extra deliveries worth 19.98 USD"
        )
        #expect(findings.first?.recordIDs == ["r1", "r2", "r3"])
    }
}
