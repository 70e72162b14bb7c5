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

@Suite struct BundleMismatchTests {
    static let foreignEntry = EvidenceEntry(transactionID: "1400000100", bundleID: "com.other.app")

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a receipt of another app with a booked row, reported once for the receipt",
            groups: [
                Fx.group(
                    "1400000100", [Fx.row("r1", tx: "1400000100", user: "u2", receipt: "rc1")],
                    [Fx.evidence("1400000100", format: .appReceipt, bundle: "com.other.app", receipt: "rc1")])
            ],
            receipts: [
                Fx.receipt(
                    "rc1", bundle: "com.other.app", entries: [foreignEntry],
                    records: [Fx.row("r1", tx: "1400000100", user: "u2", receipt: "rc1")])
            ],
            expected: [ExpectedFinding(.bundleMismatch, "1400000100", users: ["u1", "u2"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "a Server API answer for another app's bundle",
            groups: [
                Fx.group(
                    "1400000200", [Fx.row("r1", tx: "1400000200")],
                    [Fx.serverAPI("1400000200", bundle: "com.other.app")])
            ],
            expected: [ExpectedFinding(.bundleMismatch, "1400000200", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "near miss: bundle ids not configured",
            receipts: [Fx.receipt("rc3", bundle: "com.other.app")],
            context: Fx.context(bundleIDs: []),
            expected: []),
        DetectorCase(
            name: "near miss: the app's own bundle",
            groups: [Fx.clean("1400000400")],
            receipts: [Fx.receipt("rc4", records: [Fx.row("r-1400000400", tx: "1400000400", receipt: "rc4")])],
            expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func foreignEvidenceIsIgnoredByTheOtherDetectors() {
        // Another app's "verified, Production" answer must not make an unrecorded purchase.
        let findings = Detection.run(
            groups: [Fx.group("1400000500", [], [Fx.verifyReceipt("1400000500") { $0.bundleID = "com.other.app" }])],
            context: Fx.context())
        #expect(findings.isEmpty)
    }
}
