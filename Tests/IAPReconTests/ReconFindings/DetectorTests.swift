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

@Suite struct DetectorTests {
    @Test func everyCodeHasExactlyOneDetector() {
        let set = DetectorSet.all
        #expect(set.codes == Set(FindingCode.allCases))
        let transaction = set.transaction.map(\.code)
        let original = set.original.map(\.code)
        let receipt = set.receipt.map(\.code)
        #expect(Set(transaction).count == transaction.count)
        #expect(Set(original).count == original.count)
        #expect(Set(receipt).count == receipt.count)
    }

    static func finding(_ code: FindingCode, _ tx: String, records: [String] = ["r1"], detail: String = "d") -> Finding
    {
        Finding(code: code, transactionID: tx, userIDs: ["u1"], detail: detail, recordIDs: records)
    }

    @Test func collectorKeepsTheFirstFindingPerFingerprint() {
        var collector = FindingCollector()
        let first = collector.report(Self.finding(.unfinished, "1", detail: "first"))
        let again = collector.report(Self.finding(.unfinished, "1", detail: "second"))
        let other = collector.report(Self.finding(.unfinished, "1", records: ["r2"]))
        #expect(first && !again && other)
        #expect(collector.count == 2)
        #expect(collector.sorted.first?.detail == "first")
    }

    @Test func collectorReturnsReportOrder() {
        var collector = FindingCollector()
        for finding in [
            Self.finding(.priceMismatch, "1"), Self.finding(.unfinished, "2"), Self.finding(.missingRecord, "3"),
            Self.finding(.duplicateRecord, "4"), Self.finding(.undelivered, "0"), Self.finding(.unfinished, "1"),
        ] {
            collector.report(finding)
        }
        let order = collector.sorted.map { "\($0.code.rawValue):\($0.transactionID)" }
        #expect(
            order == [
                "MISSING_RECORD:3", "UNDELIVERED:0", "DUPLICATE_RECORD:4", "UNFINISHED:1", "UNFINISHED:2",
                "PRICE_MISMATCH:1",
            ])
    }

    @Test func everyDetectorIgnoresAnEmptyGroup() {
        let findings = Detection.run(
            groups: [TransactionGroup(transactionID: "1", records: [], evidence: [])],
            originals: [OriginalTransactionGroup(originalTransactionID: "1", records: [])],
            receipts: [Fx.receipt("rc1")], context: Fx.context())
        #expect(findings.isEmpty)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"), (1_795_000_000_000, "2026-11-18T11:06:40Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"),
    ])
    func timestampsAreUTC(millis: Int64, text: String) {
        #expect(FindingText.timestamp(millis) == text)
    }

    @Test(arguments: [(50_000, "50 %"), (12_500, "12.5 %"), (100_000, "100 %"), (1, "0.001 %")])
    func percentagesDropTrailingZeros(thousandths: Int, text: String) {
        #expect(FindingText.percentage(thousandths) == text)
    }
}
