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

@Suite struct RefundedDeliveredTests {
    /// A Server API transaction recorded at `recordedAt`, signed by Apple at `signedAt`.
    static func refund(
        _ tx: String, at recordedAt: Int64, signedAt: Int64? = nil, edit: @escaping (inout EvidenceEntry) -> Void
    ) -> EvidenceRecord {
        Fx.serverAPI(tx, price: Fx.usd(19_980), recordedAt: recordedAt) {
            $0.signedDate = signedAt ?? recordedAt
            edit(&$0)
        }
    }

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "Apple refunded it; the ledger still counts it",
            groups: [
                Fx.group(
                    "1600000100", [Fx.row("r1", tx: "1600000100")],
                    [
                        Fx.verifyReceipt("1600000100") {
                            $0.cancellationDate = Fx.asOf - 2 * Fx.day; $0.cancellationReason = "0"
                        }
                    ])
            ],
            expected: [ExpectedFinding(.refundedDelivered, "1600000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "a prorated refund of 50 %",
            groups: [
                Fx.group(
                    "1600000200", [Fx.row("r1", tx: "1600000200", price: Fx.usd(19_980))],
                    [
                        refund("1600000200", at: Fx.asOf - Fx.day) {
                            $0.cancellationDate = Fx.asOf - Fx.day
                            $0.revocationType = "REFUND_PRORATED"
                            $0.revocationPercentage = 50_000
                        }
                    ])
            ],
            expected: [ExpectedFinding(.refundedDelivered, "1600000200", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            // Apple's latest signed statement decides (signedDate), not when we happened to record it.
            name: "a transaction Apple signed before the refund, recorded after it, does not clear the refund",
            groups: [
                Fx.group(
                    "1600000300", [Fx.row("r1", tx: "1600000300", price: Fx.usd(19_980))],
                    [
                        refund("1600000300", at: Fx.asOf - 2 * Fx.day) { $0.cancellationDate = Fx.asOf - 2 * Fx.day },
                        refund("1600000300", at: Fx.asOf - Fx.day, signedAt: Fx.asOf - 3 * Fx.day) { _ in },
                    ])
            ],
            expected: [ExpectedFinding(.refundedDelivered, "1600000300", users: ["u1"], amount: Fx.usd(19_980))]),
        DetectorCase(
            // Apple has no REFUND_REVERSED revocationType: after a reversal Apple signs the transaction
            // again without revocationDate (App Store Server API, REFUND_REVERSED notification).
            name: "near miss: a later signed transaction without revocationDate reverses the refund",
            groups: [
                Fx.group(
                    "1600000400", [Fx.row("r1", tx: "1600000400", price: Fx.usd(19_980))],
                    [
                        refund("1600000400", at: Fx.asOf - 2 * Fx.day) {
                            $0.cancellationDate = Fx.asOf - 2 * Fx.day
                            $0.revocationType = "REFUND_FULL"
                        },
                        refund("1600000400", at: Fx.asOf - Fx.day) { _ in },
                    ])
            ],
            expected: []),
        DetectorCase(
            name: "a refund signed after the reversal-looking answer stands, whatever the recording order",
            groups: [
                Fx.group(
                    "1600000450", [Fx.row("r1", tx: "1600000450", price: Fx.usd(19_980))],
                    [
                        refund("1600000450", at: Fx.asOf - Fx.day, signedAt: Fx.asOf - 2 * Fx.day) {
                            $0.cancellationDate = Fx.asOf - 2 * Fx.day
                            $0.revocationType = "REFUND_FULL"
                        },
                        refund("1600000450", at: Fx.asOf - Fx.hour, signedAt: Fx.asOf - 3 * Fx.day) { _ in },
                    ])
            ],
            expected: [ExpectedFinding(.refundedDelivered, "1600000450", users: ["u1"], amount: Fx.usd(19_980))]),
        DetectorCase(
            name: "near miss: an unverified offline receipt's cancellation proves nothing",
            groups: [
                Fx.group(
                    "1600000500", [Fx.row("r1", tx: "1600000500")],
                    [Fx.offlineReceipt("1600000500") { $0.cancellationDate = Fx.asOf - Fx.day }])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: FAMILY_REVOKE returns no money",
            groups: [
                Fx.group(
                    "1600000600", [Fx.row("r1", tx: "1600000600", price: Fx.usd(19_980))],
                    [
                        refund("1600000600", at: Fx.asOf - Fx.day) {
                            $0.cancellationDate = Fx.asOf - Fx.day
                            $0.revocationType = "FAMILY_REVOKE"
                        }
                    ])
            ],
            expected: []),
        DetectorCase(
            name: "near miss: the ledger no longer counts it (marked invalid, never delivered)",
            groups: [
                Fx.group(
                    "1600000700", [Fx.row("r1", tx: "1600000700", status: .invalid, delivered: false)],
                    [Fx.verifyReceipt("1600000700") { $0.cancellationDate = Fx.asOf - Fx.day }])
            ],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func proratedDetailStatesTheShare() throws {
        let finding = try #require(Self.cases[1].run().first)
        #expect(finding.detail.contains("refunded 50 % of transaction 1600000200"))
        #expect(finding.detail.hasSuffix("9.99 USD to reverse"))
    }
}
