import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconModel
@testable import ReconReports

/// A night's `revenue_schedule.csv` is the last report's file patched (CONTRACT §5 "Incremental reports").
///
/// The lines that can have changed are written again, the others copied; the bytes are those a fresh store's report
/// writes given the same inputs. `run.json`'s `report` stage counts the lines copied and written.
///
/// The ledger: a monthly pass over before the last report, a yearly pass in flight, coins, a monthly pass in flight at
/// the last report and over by the night, a subscription Apple later says is a family member's, coins Apple refunds on
/// the night (bought by a user whose id needs quotes), and on the night a new yearly pass.
@Suite struct ReportStageRevenueScheduleTests {
    let dir = TemporaryDirectory("schedule-nights")
    static let day: Int64 = 86_400_000
    static let lastReport = Timestamp.parse("2026-11-20T00:00:00Z") ?? 0
    static let night = Timestamp.parse("2026-11-28T00:00:00Z") ?? 0

    static let products = """
        product_id,type,price,currency,storefront,proceeds_rate,duration
        pass_month,non-renewing,3.00,USD,,0.70,P1M
        pass_year,non-renewing,36.50,USD,,,P1Y
        monthly,auto-renewable,9.99,USD,,0.70,P1M
        coins,consumable,0.99,USD,,,

        """

    static let header =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,"
        + "currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n"

    static func row(_ n: Int, user: String, product: String, price: String, at: String) -> String {
        "r\(n),\(user),\(product),200000010\(n),,\(at),1,Production,\(price),USD,USA,verified,\(at),\(at),\n"
    }

    static let ledger =
        header + row(1, user: "u1", product: "pass_month", price: "3.00", at: "2026-10-16T00:00:00Z")
        + row(2, user: "u2", product: "pass_year", price: "36.50", at: "2026-11-10T13:05:00Z")
        + row(3, user: "u3", product: "coins", price: "0.99", at: "2026-11-02T08:00:00Z")
        + row(4, user: "u4", product: "pass_month", price: "3.00", at: "2026-10-25T00:00:00Z")
        + row(5, user: "u5", product: "monthly", price: "9.99", at: "2026-11-05T00:00:00Z")
        + row(6, user: "\"u,\"\"6\"", product: "coins", price: "0.99", at: "2026-11-03T00:00:00Z")
    static let nightLedger =
        ledger + row(7, user: "u7", product: "pass_year", price: "36.50", at: "2026-11-24T00:00:00Z")

    /// Apple's word on the night: the coins of 2000000106 refunded on 2026-11-21, and 2000000105 a family member's.
    static func notifications() throws -> String {
        let refundedAt = Timestamp.parse("2026-11-21T10:00:00Z") ?? 0
        let refund = SignedNotifications.transaction(
            "2000000106", purchased: Timestamp.parse("2026-11-03T00:00:00Z") ?? 0, revoked: refundedAt,
            revocationType: "REFUND_FULL", signedDate: refundedAt)
        let sharedAt = Timestamp.parse("2026-11-22T00:00:00Z") ?? 0
        let shared = SignedNotifications.transaction(
            "2000000105", product: "monthly", type: "Auto-Renewable Subscription",
            purchased: Timestamp.parse("2026-11-05T00:00:00Z") ?? 0, price: 0, signedDate: sharedAt,
            ownership: "FAMILY_SHARED")
        return [
            SignedNotifications.line(
                try SignedNotifications.sign(
                    "REFUND", uuid: "00000000-0000-4000-8000-000000000001", signedDate: refundedAt, transaction: refund)
            ),
            SignedNotifications.line(
                try SignedNotifications.sign(
                    "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "00000000-0000-4000-8000-000000000002",
                    signedDate: sharedAt, transaction: shared)),
        ].joined(separator: "\n") + "\n"
    }

    func config(store: String, out: String, asOf: Int64) throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file(store), outputDirectory: dir.file(out))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.recognitionBasis = .customerPrice
        // A night of this small ledger changes more than a quarter of it: it still builds on the last report.
        config.incrementalLimitPercent = 100
        config.asOf = asOf
        return config
    }

    /// Imports the ledger (with the night's row and Apple's word when `night`) into `store` as of `asOf`.
    func load(_ store: String, night: Bool, asOf: Int64) async throws {
        var request = ImportRequest(
            transactions: [try dir.write("t-\(store).csv", night ? Self.nightLedger : Self.ledger)],
            products: [try dir.write("p.csv", Self.products)])
        if night { request.notifications = [try dir.write("n.jsonl", try Self.notifications())] }
        _ = try await config(store: store, out: "unused", asOf: asOf).dependencies(at: asOf).importFiles(request)
    }

    /// Reports `store` at `asOf` into `out`: the schedule's text and the lines `run.json` says were copied and written.
    func report(_ store: String, out: String, asOf: Int64, full: Bool = false) async throws
        -> (schedule: String, copied: Int, written: Int)
    {
        var config = try config(store: store, out: out, asOf: asOf)
        config.fullReport = full
        _ = try await config.dependencies(at: asOf, opening: .existing).report()
        let run = try JSONSerialization.jsonObject(with: Data(try dir.read(out + "/run.json").utf8)) as? [String: Any]
        let stages = run?["stages"] as? [[String: Any]] ?? []
        let counts = stages.first { $0["name"] as? String == "report" }?["counts"] as? [String: Int] ?? [:]
        return (
            try dir.read(out + "/revenue_schedule.csv"), counts["schedule_lines_copied"] ?? -1,
            counts["schedule_lines_written"] ?? -1
        )
    }

    /// The schedule a fresh store writes given the same inputs, learned as of `learned`, reported at `asOf`.
    func fresh(night: Bool, learned: Int64, asOf: Int64) async throws -> String {
        let store = "fresh-\(asOf).sqlite"
        try await load(store, night: night, asOf: learned)
        return try await report(store, out: "fresh-\(asOf)", asOf: asOf, full: true).schedule
    }

    /// The last report at 2026-11-20 into `first`, then the night at 2026-11-28 into `second`.
    func twoNights(first: String = "n0", second: String = "n1") async throws
        -> (last: String, night: (schedule: String, copied: Int, written: Int))
    {
        try await load("s.sqlite", night: false, asOf: Self.lastReport)
        let last = try await report("s.sqlite", out: first, asOf: Self.lastReport)
        #expect(last.copied == 0 && last.written == 6, "\(last)")
        try await load("s.sqlite", night: true, asOf: Self.night)
        return (last.schedule, try await report("s.sqlite", out: second, asOf: Self.night))
    }

    func line(_ schedule: String, _ id: String) -> String? {
        schedule.components(separatedBy: "\r\n").first { $0.hasPrefix(id + ",") }
    }

    @Test func theNightPatchesTheLastReportsScheduleFromItsFolder() async throws {
        let (last, night) = try await twoNights()
        #expect(night.schedule == (try await fresh(night: true, learned: Self.night, asOf: Self.night)))
        // Copied: the pass over before the last report, the coins. Written: the sales in flight then (the yearly pass,
        // the monthly pass since over), the refunded coins, the new pass; the family member's is gone.
        #expect(night.copied == 2 && night.written == 4, "\(night)")
        // The last report's folder keeps its file.
        #expect(try dir.read("n0/revenue_schedule.csv") == last)
    }

    @Test func theSameFolderAgainIsPatchedInPlace() async throws {
        let (_, night) = try await twoNights(first: "out", second: "out")
        #expect(night.copied == 2, "\(night)")
        #expect(night.schedule == (try await fresh(night: true, learned: Self.night, asOf: Self.night)))
    }

    @Test func aSaleNoLongerCountedLeavesTheSchedule() async throws {
        let (last, night) = try await twoNights()
        #expect(line(last, "2000000105") != nil)
        #expect(line(night.schedule, "2000000105") == nil)
    }

    @Test func aRefundOnTheNightRewritesALineOfASaleNoLongerInFlight() async throws {
        let (last, night) = try await twoNights()
        #expect(line(last, "2000000106")?.hasSuffix(",0.99,0.00,0.00,point-in-time") == true, "\(last)")
        #expect(line(night.schedule, "2000000106")?.hasSuffix(",0.00,0.99,0.00,point-in-time") == true)
        #expect(line(night.schedule, "2000000106")?.hasPrefix("2000000106,2000000106,\"u,\"\"6\",") == true)
    }

    @Test func salesInFlightAtTheLastReportAreWrittenAtTheNightsAsOf() async throws {
        let (last, night) = try await twoNights()
        // 3.00 over 2026-10-25 → 2026-11-25: 26 of 31 days by the last report, all of it by the night.
        #expect(line(last, "2000000104")?.hasSuffix(",2.52,0.00,0.48,catalog") == true, "\(last)")
        #expect(line(night.schedule, "2000000104")?.hasSuffix(",3.00,0.00,0.00,catalog") == true)
        // Still in flight: the yearly pass recognizes more.
        #expect(line(last, "2000000102") != line(night.schedule, "2000000102"))
        // Over before the last report: the same bytes.
        #expect(line(last, "2000000101") == line(night.schedule, "2000000101"))
    }

    enum Tampering: String, CaseIterable {
        case edited, removed, truncated, replacedBySameSize
    }

    @Test(arguments: Tampering.allCases)
    func aLastScheduleChangedSinceIsNotPatched(_ tampering: Tampering) async throws {
        try await load("s.sqlite", night: false, asOf: Self.lastReport)
        let last = try await report("s.sqlite", out: "n0", asOf: Self.lastReport)
        let path = dir.file("n0/revenue_schedule.csv")
        switch tampering {
        case .edited:
            _ = try dir.write("n0/revenue_schedule.csv", last.schedule.replacingOccurrences(of: "u3", with: "U3"))
        case .removed: try FileManager.default.removeItem(atPath: path)
        case .truncated: _ = try dir.write("n0/revenue_schedule.csv", String(last.schedule.dropLast(2)))
        case .replacedBySameSize:
            // Another store's schedule of the same size: opened in a spreadsheet and saved, or copied over.
            _ = try dir.write("n0/revenue_schedule.csv", last.schedule.replacingOccurrences(of: "0.99", with: "9.90"))
        }
        try await load("s.sqlite", night: true, asOf: Self.night)
        let night = try await report("s.sqlite", out: "n1", asOf: Self.night)
        #expect(night.copied == 0 && night.written == 6, "\(night)")
        #expect(night.schedule == (try await fresh(night: true, learned: Self.night, asOf: Self.night)))
    }

    /// What makes the night judge every transaction writes the schedule whole: `--full`, another time zone, another
    /// recognition basis.
    @Test(arguments: ["--full", "--timezone", "--recognition-basis"])
    func aNightThatJudgesEverythingWritesTheScheduleWhole(_ change: String) async throws {
        try await load("s.sqlite", night: false, asOf: Self.lastReport)
        _ = try await report("s.sqlite", out: "n0", asOf: Self.lastReport)
        try await load("s.sqlite", night: true, asOf: Self.night)
        var config = try config(store: "s.sqlite", out: "n1", asOf: Self.night)
        switch change {
        case "--full": config.fullReport = true
        case "--timezone": config.timeZone = "America/Los_Angeles"
        default: config.recognitionBasis = .proceeds
        }
        _ = try await config.dependencies(at: Self.night, opening: .existing).report()
        let run = try JSONSerialization.jsonObject(with: Data(try dir.read("n1/run.json").utf8)) as? [String: Any]
        let stages = run?["stages"] as? [[String: Any]] ?? []
        let detect = stages.first { $0["name"] as? String == "detect" }?["counts"] as? [String: Int] ?? [:]
        let counts = stages.first { $0["name"] as? String == "report" }?["counts"] as? [String: Int] ?? [:]
        #expect(detect["incremental"] == 0)
        #expect(counts["schedule_lines_copied"] == 0 && counts["schedule_lines_written"] == 6, "\(counts)")
    }

    /// The month-end close at an earlier as-of (`report --as-of`) writes whole; the next night patches the close's.
    @Test func anEarlierAsOfWritesWholeAndTheNextNightPatchesIt() async throws {
        _ = try await twoNights()
        let close = Timestamp.parse("2026-11-23T00:00:00Z") ?? 0
        let closed = try await report("s.sqlite", out: "close", asOf: close)
        #expect(closed.copied == 0, "\(closed)")
        #expect(closed.schedule == (try await fresh(night: true, learned: Self.night, asOf: close)))
        let later = Timestamp.parse("2026-11-29T00:00:00Z") ?? 0
        let next = try await report("s.sqlite", out: "n2", asOf: later)
        #expect(next.copied > 0, "\(next)")
        #expect(next.schedule == (try await fresh(night: true, learned: Self.night, asOf: later)))
    }

    /// The same as-of again (a report run twice) writes whole: only a later as-of builds on the last file.
    @Test func theSameAsOfAgainWritesWhole() async throws {
        _ = try await twoNights()
        let again = try await report("s.sqlite", out: "again", asOf: Self.night)
        #expect(again.copied == 0, "\(again)")
        #expect(again.schedule == (try await fresh(night: true, learned: Self.night, asOf: Self.night)))
    }
}
