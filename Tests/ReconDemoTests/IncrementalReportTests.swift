import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import ReconDemo
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

/// An incremental report (CONTRACT §5 "Incremental reports") writes what a report judging every transaction writes,
/// byte for byte: the same nights run on two stores, one reporting incrementally, the other with `--full`.
@Suite(.serialized) struct IncrementalReportTests {
    let dir = TemporaryDirectory("incremental")
    static let day: Int64 = 86_400_000

    /// One store and how it reports.
    struct Side {
        var name: String
        var config: ReconConfig
        var full: Bool
    }

    /// The CSV files of the report, whether it was incremental (from run.json's detect stage), and whether it patched
    /// the last report's `revenue_schedule.csv` (its report stage copied lines of it).
    func report(_ side: Side, asOf: Int64, night: Int) async throws
        -> (files: [String: String], incremental: Bool, patched: Bool)
    {
        var config = side.config
        config.asOf = asOf
        config.fullReport = side.full
        let folder = "\(side.name)-\(night)"
        config.outputDirectory = dir.file(folder)
        _ = try await config.dependencies(at: asOf, opening: .existing).report()
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(folder)) where name.hasSuffix(".csv") {
            files[name] = try dir.read("\(folder)/\(name)")
        }
        let run =
            try JSONSerialization.jsonObject(with: Data(try dir.read("\(folder)/run.json").utf8)) as? [String: Any]
        let stages = run?["stages"] as? [[String: Any]] ?? []
        let detect = stages.first { $0["name"] as? String == "detect" }?["counts"] as? [String: Int]
        let report = stages.first { $0["name"] as? String == "report" }?["counts"] as? [String: Int]
        return (files, detect?["incremental"] == 1, (report?["schedule_lines_copied"] ?? 0) > 0)
    }

    /// The ledger's rows purchased by `asOf` (with the header), with `change` applied to each row's fields.
    func ledger(_ csv: String, by asOf: Int64, change: ([String]) -> [String] = { $0 }) -> String {
        let lines = csv.split(separator: "\n").map(String.init)
        var kept = [lines[0]]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 15, let purchased = Timestamp.parse(fields[5]), purchased <= asOf else { continue }
            kept.append(change(fields).joined(separator: ","))
        }
        return kept.joined(separator: "\n") + "\n"
    }

    @Test func nightsReportedIncrementallyMatchReportsThatJudgeEverything() async throws {
        try await runNights(incrementalStore: dir.file("incremental.sqlite"), fullStore: dir.file("full.sqlite"))
    }

    /// The same nights with the incremental store in PostgreSQL (CONTRACT §2 `STORE`): its reports equal, byte for
    /// byte, those of an SQLite store judging everything every night.
    @Test func nightsReportedIncrementallyInPostgreSQLMatchSQLiteReportsThatJudgeEverything() async throws {
        let server = try ThrowawayPostgres()
        defer { server.destroy() }
        try await runNights(incrementalStore: server.url(), fullStore: dir.file("full.sqlite"))
    }

    /// The same nights with the incremental store on a three-node Citus cluster (docs/store.md, "The store on
    /// Citus"): distributed by the program, its reports equal those of an SQLite store judging everything.
    @Test func nightsReportedIncrementallyOnCitusMatchSQLiteReportsThatJudgeEverything() async throws {
        let cluster = try ThrowawayCitus()
        defer { cluster.destroy() }
        try await runNights(incrementalStore: try cluster.createDatabase("nights"), fullStore: dir.file("full.sqlite"))
        let distributed = try cluster.psql(
            "SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'transactions'::regclass", database: "nights")
        #expect(distributed.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    /// Seven nights reported on two stores, one incrementally, one with `--full`; every CSV compared.
    func runNights(incrementalStore: String, fullStore: String) async throws {
        // The nights cross a month's end (2026-11-27 to 2026-12-03): revenue recognition closes November on the kept
        // sales while December opens.
        let dataset = try DemoDataset.generate(
            seed: 24, purchases: 240, asOf: Timestamp.parse("2026-12-03T12:00:00Z") ?? 0)
        let (simulator, started) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("unused.sqlite"), outputDirectory: dir.file("out"),
            inputDirectory: dir.path)
        defer { Task { await simulator.stop() } }
        var base = started
        base.salesReportTimeZone = DemoDataset.salesReportTimeZone
        var sides: [Side] = []
        for (name, full, store) in [("incremental", false, incrementalStore), ("full", true, fullStore)] {
            var config = base
            config.databasePath = store
            // However much a night changes, the incremental side builds on the night before.
            config.incrementalLimitPercent = 100
            sides.append(Side(name: name, config: config, full: full))
        }
        let products = try dir.write("p.csv", dataset.products)
        let salesReports = Array(zip(dataset.salesReportDays, try dataset.writeSalesReports(into: dir.path)))
        let finance = try dataset.writeFinancialReports(into: dir.path)
        var imported: Set<String> = []
        var financeImported = false
        // Seven nights up to the dataset's as-of: each imports the whole export so far (the rows seen before again),
        // and some bring more.
        var incrementalNights = 0
        for night in 0..<7 {
            let asOf = dataset.asOf - Int64(6 - night) * Self.day
            var csv = ledger(dataset.transactions, by: asOf)
            if night >= 3 {
                // Changed rows: the backend delivered and finished what it had not, and marked a refund invalid.
                csv = ledger(dataset.transactions, by: asOf) { fields in
                    var fields = fields
                    if fields[12].isEmpty, fields[3].hasSuffix("7") {
                        fields[12] = fields[5]
                        fields[13] = fields[5]
                    }
                    if fields[3].hasSuffix("13") { fields[11] = "invalid" }
                    return fields
                }
            }
            var request = ImportRequest(transactions: [try dir.write("t-\(night).csv", csv)], products: [products])
            // Late evidence: the receipts (refunds and revocations among them) arrive on the third night.
            if night >= 2 { request.receipts = [try dir.write("r.jsonl", dataset.receipts)] }
            // Apple's sales reports of the days that ended (Pacific time): the first day's on the first night, the
            // others on the second (the proceeds they state price sales judged before), every one again on the sixth.
            let ended = salesReports.filter { Int64($0.0 + 1) * Self.day + 9 * 3_600_000 <= asOf }.map(\.1)
            let due = night == 0 ? Array(ended.prefix(1)) : ended
            request.salesReports = night == 5 ? due : due.filter { !imported.contains($0) }
            imported.formUnion(due)
            // The Financial Reports of the fiscal month and its payment summary, from the fifth night once it ended:
            // their partner shares price sales judged before.
            if night >= 4, !financeImported, let period = dataset.financialPeriod,
                Int64(period.end + 1) * Self.day + 9 * 3_600_000 <= asOf
            {
                request.financialReports = finance.reports
                request.payments = finance.payments
                financeImported = true
            }
            var outputs: [[String: String]] = []
            for side in sides {
                var config = side.config
                config.asOf = asOf
                _ = try await config.dependencies(at: asOf).importFiles(request)
                if night == 3 {
                    // Apple's word, learned as of this night: verdicts, transaction info, the notification history.
                    _ = try await config.dependencies(at: asOf, opening: .existing).verify()
                }
                let (files, incremental, patched) = try await report(side, asOf: asOf, night: night)
                if side.full {
                    #expect(!incremental, "night \(night): --full judged only some transactions")
                    #expect(!patched, "night \(night): --full patched the last schedule")
                } else if incremental {
                    incrementalNights += 1
                    // The last night's folder holds its schedule: this night's is that file patched.
                    #expect(patched, "night \(night): the schedule was written whole")
                }
                outputs.append(files)
            }
            #expect(outputs[0].keys.sorted() == outputs[1].keys.sorted(), "night \(night)")
            let deferred = outputs[1]["deferred_revenue.csv"] ?? ""
            #expect(deferred.contains("\r\n2026-11,"), "night \(night): no November in the roll-forward")
            #expect((outputs[1]["revenue_schedule.csv"] ?? "").split(separator: "\r\n").count > 50)
            if night == 6 { #expect(deferred.contains("\r\n2026-12,")) }
            for (name, text) in outputs[1] {
                let mine = outputs[0][name] ?? ""
                #expect(mine == text, "night \(night): \(name) differs\n\(Self.difference(mine, text))")
            }
        }
        // Every night but the first builds on the night before, Apple's reports, new, changed or replaced, too.
        #expect(salesReports.contains { Int64($0.0 + 1) * Self.day + 9 * 3_600_000 <= dataset.asOf - 6 * Self.day })
        #expect(financeImported)
        #expect(incrementalNights == 6)
    }

    /// The lines only one side has, for the failure message.
    static func difference(_ incremental: String, _ full: String) -> String {
        let mine = incremental.split(separator: "\n")
        let theirs = full.split(separator: "\n")
        let onlyMine = mine.filter { !theirs.contains($0) }.prefix(5)
        let onlyTheirs = theirs.filter { !mine.contains($0) }.prefix(5)
        return "incremental only: \(onlyMine)\nfull only: \(onlyTheirs)"
    }
}
