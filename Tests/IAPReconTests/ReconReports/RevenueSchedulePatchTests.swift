import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconFindings
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage

/// `revenue_schedule.csv` patched from an earlier one is the file a whole write makes, byte for byte, whatever its
/// texts need (quotes around commas, quotes and line breaks, the formula guard); an earlier file that is not the one
/// recorded, or whose ids cannot be read back, is refused, and the file at the new path is untouched.
@Suite struct RevenueSchedulePatchTests {
    let dir = TemporaryDirectory("schedule-patch-unit")
    static let day: Int64 = 86_400_000
    static let a0 = Timestamp.parse("2026-11-20T00:00:00Z") ?? 0
    static let a1 = a0 + 8 * day

    static func sale(_ id: String, user: String = "u1", start: Int64, days: Int64? = 30, refundAt: Int64? = nil)
        -> RecognitionSale
    {
        RecognitionSale(
            transactionID: id, originalTransactionID: id, userID: user, productID: "pass",
            amount: Money(milliunits: 30_000, currency: "USD"), start: start, end: days.map { start + $0 * day },
            periodSource: days == nil ? .pointInTime : .catalog,
            refunds: refundAt.map { [RecognitionSale.Refund(at: $0, kind: .full)] } ?? [])
    }

    func report(_ asOf: Int64) -> DeferredRevenueReport {
        var report = DeferredRevenueReport()
        report.asOf = asOf
        return report
    }

    /// Writes `sales` whole at `asOf` to `name`; returns what the store would keep of it.
    func whole(_ sales: [RecognitionSale], asOf: Int64, to name: String) throws -> RevenueScheduleRecord {
        let written = try CSVReports.writeRevenueSchedule(report(asOf), to: dir.file(name)) { each in
            for sale in sales { try each(sale) }
        }
        return RevenueScheduleRecord(path: dir.file(name), asOf: asOf, bytes: written.bytes, crc32: written.crc32)
    }

    /// Sales at A0, and the night's changes: one sale refunded (judged again), one no longer counted, one in flight at
    /// A0, one bought since; the ids and users need quotes (a comma, a quote, a line break) or none.
    static let before = [
        sale("1", start: a0 - 90 * day),
        sale("2,x", user: "line\nbreak", start: a0 - 60 * day),
        sale("3\"q", user: "say \"hi\", twice", start: a0 - 45 * day, days: nil),
        sale("4", start: a0 - 10 * day),
        sale("5\r\nz", start: a0 - 50 * day),
        sale("6", user: "a,b", start: a0 - 40 * day, days: nil),
        sale("'quoted", start: a0 - 70 * day),
    ].sorted(by: inStoreOrder)

    /// Byte by byte, as the store orders transaction ids.
    static func inStoreOrder(_ a: RecognitionSale, _ b: RecognitionSale) -> Bool {
        Array(a.transactionID.utf8).lexicographicallyPrecedes(Array(b.transactionID.utf8))
    }

    static func before(_ id: String) -> RecognitionSale {
        before.first { $0.transactionID == id } ?? sale(id, start: 0)
    }

    @Test func aPatchedScheduleIsTheWholeWritesBytes() throws {
        let record = try whole(Self.before, asOf: Self.a0, to: "before.csv")
        let refunded = Self.sale(
            "3\"q", user: "say \"hi\", twice", start: Self.a0 - 45 * Self.day, days: nil,
            refundAt: Self.a0 + Self.day)
        let new = Self.sale("45", start: Self.a0 + 2 * Self.day)
        let after = (Self.before.filter { !["3\"q", "6"].contains($0.transactionID) } + [refunded, new])
            .sorted(by: Self.inStoreOrder)
        // The store's changes: the judged ones ("3\"q" refunded, "45" new, "6" no longer counted), and "4" in flight.
        let changes: [(String, RecognitionSale?)] = [
            ("3\"q", refunded), ("4", Self.before("4")), ("45", new), ("6", nil),
        ]
        let patched = try CSVReports.patchRevenueSchedule(
            report(Self.a1), to: dir.file("patched.csv"), previous: record
        ) { each in
            for (id, sale) in changes { try each(id, sale) }
        }
        _ = try whole(after, asOf: Self.a1, to: "whole.csv")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.file("patched.csv")))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: dir.file("whole.csv")))))
        #expect(patched.copied == 4)
        #expect(patched.rendered == 3)
        #expect(patched.dropped == 3)
        #expect(patched.bytes == Int64(bytes.count))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"line\nbreak\""))
    }

    @Test(arguments: ["edited", "longer", "removed", "not CRLF"])
    func anEarlierFileThatIsNotTheRecordedOneIsRefused(_ change: String) throws {
        let record = try whole(Self.before, asOf: Self.a0, to: "before.csv")
        var text = try dir.read("before.csv")
        switch change {
        case "edited": text = text.replacingOccurrences(of: "30.00", with: "31.00")
        case "longer": text += "9,9,u,pass,USD,1.00,2026-11-01T00:00:00Z,,1.00,0.00,0.00,point-in-time\r\n"
        case "not CRLF": text = text.replacingOccurrences(of: "catalog\r\n", with: "catalog\n\n")
        default: try FileManager.default.removeItem(atPath: dir.file("before.csv"))
        }
        if change != "removed" { _ = try dir.write("before.csv", text) }
        #expect(throws: UntrustedSchedule.self) {
            try CSVReports.patchRevenueSchedule(
                self.report(Self.a1), to: self.dir.file("patched.csv"), previous: record
            ) { _ in }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("patched.csv")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.contains(".tmp-") })
    }

    /// `'=5` is the guarded `=5` or the id `'=5` itself: the file cannot tell, so it is not patched.
    @Test func anIdTheFormulaGuardMayHavePrefixedIsRefused() throws {
        let record = try whole([Self.sale("'=5", start: Self.a0 - Self.day)], asOf: Self.a0, to: "guarded.csv")
        #expect(try dir.read("guarded.csv").contains("\r\n'=5,"))
        #expect(throws: UntrustedSchedule.self) {
            try CSVReports.patchRevenueSchedule(
                self.report(Self.a1), to: self.dir.file("patched.csv"), previous: record
            ) { _ in }
        }
    }

    /// Ids compare byte by byte, as the store orders them: "10" before "9", "Z" before "a", "é" after "z".
    @Test func idsCompareAsTheStoreOrdersThem() {
        func compare(_ a: String, _ b: String) -> Int {
            Array(a.utf8).withUnsafeBytes { x in
                Array(b.utf8).withUnsafeBytes { PreviousRevenueSchedule.compare(x, $0) }
            }
        }
        #expect(compare("10", "9") < 0)
        #expect(compare("Z", "a") < 0)
        #expect(compare("z", "é") < 0)
        #expect(compare("1", "10") < 0)
        #expect(compare("10", "10") == 0)
    }
}
