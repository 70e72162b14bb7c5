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

@Suite struct InvalidReceiptTests {
    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a JWS with a bad signature that a booked row relies on",
            receipts: [
                Fx.receipt(
                    "rc1", uploader: "u9", format: .signedTransaction,
                    failure: ReceiptDecodingError(.badSignature, "ES256 signature does not verify"),
                    records: [Fx.row("r1", tx: "1300000100", user: "u2", receipt: "rc1")])
            ],
            expected: [ExpectedFinding(.invalidReceipt, "1300000100", users: ["u2", "u9"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "Apple answered 21003; filed under the decoded purchase",
            receipts: [Fx.receipt("rc2", entries: [EvidenceEntry(transactionID: "1300000200")], appleStatus: 21003)],
            expected: [ExpectedFinding(.invalidReceipt, "1300000200", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "a malformed payload with nothing else: filed under the receipt id",
            receipts: [Fx.receipt("rc3", failure: ReceiptDecodingError(.malformed, "not base64"))],
            expected: [ExpectedFinding(.invalidReceipt, "rc3", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "an untrusted chain; the invalid row is not counted as booked revenue",
            receipts: [
                Fx.receipt(
                    "rc4", failure: ReceiptDecodingError(.untrustedChain, "no trusted root"),
                    records: [Fx.row("r4", tx: "1300000400", status: .invalid, delivered: false, receipt: "rc4")])
            ],
            expected: [ExpectedFinding(.invalidReceipt, "1300000400", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "near miss: our decoder failed but Apple answered 0",
            receipts: [Fx.receipt("rc5", failure: ReceiptDecodingError(.malformed, "unexpected tag"), appleStatus: 0)],
            expected: []),
        DetectorCase(
            name: "near miss: a valid receipt",
            receipts: [Fx.receipt("rc6", appleStatus: 0, appleEnv: .production)],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }
}
