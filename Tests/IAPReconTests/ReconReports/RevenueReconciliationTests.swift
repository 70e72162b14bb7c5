import Foundation
import IAPReconTestSupport
import Logging
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

/// Revenue follows the evidence, and its totals reconcile with the ledger and the findings.
@Suite struct RevenueReconciliationTests {
    let dir = TemporaryDirectory("revenue")
    let logger = Logger.quiet
    static let day: Int64 = 86_400_000
    static let d18: Int64 = 1_795_478_400_000 - 6 * day  // 2026-11-18T00:00:00Z
    /// When the store learned Apple's answers: after the refunds, before the report's as-of (2026-11-20T12:00Z),
    /// which leaves out what was learned later.
    static let learned: Int64 = d18 + 2 * day + 3_600_000

    /// A store with: a clean sale; a transaction recorded twice; a Production booking Apple
    /// says is Sandbox; a Sandbox booking Apple says is Production; a refund two days later; an
    /// invalid row; a 50 % prorated refund in JPY.
    func makeStore() async throws -> (ReconStore, ReconConfig) {
        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,environment,price,currency,verification_status,delivered_at,finished_at
            r1,u1,coins,t1,\(Self.d18 + 3_600_000),Production,0.99,USD,verified,\(Self.d18 + 3_600_000),\(Self.d18 + 3_600_000)
            r2a,u2,coins,t2,\(Self.d18 + 7_200_000),Production,0.99,USD,verified,\(Self.d18 + 7_200_000),\(Self.d18 + 7_200_000)
            r2b,u2,coins,t2,\(Self.d18 + 7_300_000),Production,0.99,USD,verified,\(Self.d18 + 7_300_000),\(Self.d18 + 7_300_000)
            r3,u3,premium,t3,\(Self.d18 + 9_000_000),Production,9.99,USD,verified,\(Self.d18 + 9_000_000),\(Self.d18 + 9_000_000)
            r4,u4,premium,t4,\(Self.d18 + Self.day),Sandbox,9.99,USD,verified,\(Self.d18 + Self.day),\(Self.d18 + Self.day)
            r5,u5,premium,t5,\(Self.d18 + 10_000_000),Production,9.99,USD,verified,\(Self.d18 + 10_000_000),\(Self.d18 + 10_000_000)
            r6,u6,coins,t6,\(Self.d18 + 11_000_000),Production,0.99,USD,invalid,,
            r7,u7,gems,t7,\(Self.d18 + 12_000_000),Production,1200,JPY,verified,\(Self.d18 + 12_000_000),\(Self.d18 + 12_000_000)

            """
        let products = """
            product_id,type,price,currency,storefront,proceeds_rate
            coins,consumable,0.99,USD,,
            premium,non-consumable,9.99,USD,,0.85
            gems,consumable,1200,JPY,,

            """
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.example.app"]
        _ = try await config.dependencies(at: 1_795_176_000_000).importFiles(
            ImportRequest(transactions: [try dir.write("t.csv", ledger)], products: [try dir.write("p.csv", products)]))
        let store = try ReconStore(path: config.databasePath, clock: ManualClock(millis: 1_795_176_000_000))
        func apple(_ records: [String], _ tid: String, status: Int, env: StoreEnvironment, entry: EvidenceEntry)
            async throws
        {
            try store.receipts.recordVerification(
                VerificationRecord(
                    recordIDs: records, receiptID: nil, transactionID: tid, source: .verifyReceipt, appleStatus: status,
                    environment: env, bundleID: "com.example.app", outcome: status == 0 ? .valid : .invalid,
                    entries: [entry]), runID: nil, at: Self.learned, learnedAt: Self.learned)
        }
        try await apple(
            ["r3"], "t3", status: 21007, env: .sandbox,
            entry: EvidenceEntry(transactionID: "t3", productID: "premium", quantity: 1))
        try await apple(
            ["r4"], "t4", status: 0, env: .production,
            entry: EvidenceEntry(transactionID: "t4", productID: "premium", quantity: 1))
        try await apple(
            ["r5"], "t5", status: 0, env: .production,
            entry: EvidenceEntry(
                transactionID: "t5", productID: "premium", quantity: 1,
                cancellationDate: Self.d18 + 2 * Self.day + 60_000))
        try store.receipts.recordVerification(
            VerificationRecord(
                recordIDs: ["r7"], transactionID: "t7", source: .serverAPI, environment: .production,
                bundleID: "com.example.app", outcome: .valid,
                entries: [
                    EvidenceEntry(
                        transactionID: "t7", productID: "gems", quantity: 1, cancellationDate: Self.d18 + 2 * Self.day,
                        revocationType: "REFUND_PRORATED", revocationPercentage: 50_000,
                        price: Money(milliunits: 1_200_000, currency: "JPY"), environment: .production,
                        bundleID: "com.example.app")
                ], signature: .verified), runID: nil, at: Self.learned, learnedAt: Self.learned)
        return (store, config)
    }

    @Test func revenueRowsAndTotalsReconcileWithTheFindings() async throws {
        let (_, config) = try await makeStore()
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        let revenue = try dir.read("out/revenue_daily.csv")
        #expect(
            revenue == """
                date,product_id,currency,units,gross,refunds,net,estimated_proceeds,proceeds,proceeds_currency,proceeds_source\r
                2026-11-18,coins,USD,2,1.98,0.00,1.98,1.39,1.39,USD,estimate\r
                2026-11-18,gems,JPY,1,1200,0,1200,840,840,JPY,estimate\r
                2026-11-18,premium,USD,1,9.99,0.00,9.99,8.49,8.49,USD,estimate\r
                2026-11-19,premium,USD,1,9.99,0.00,9.99,8.49,8.49,USD,estimate\r
                2026-11-20,gems,JPY,0,0,600,-600,-420,-420,JPY,estimate\r
                2026-11-20,premium,USD,0,0.00,9.99,-9.99,-8.49,-8.49,USD,estimate\r

                """)
        // gross − refunds = net on every row.
        let (report, store) = try await reportValues()
        for row in report.revenue { #expect(row.gross - row.refunds == row.net) }

        // Ledger (Production, not invalid) − duplicates − test purchases + recovered = gross;
        // gross − refunds still counted = net.
        var findings: [Finding] = []
        try store.findings.forEachRunFinding(at: report.asOf) { findings.append($0.finding) }
        func amount(_ code: FindingCode, _ currency: String) -> Int64 {
            findings.filter { $0.code == code && $0.amount?.currency == currency }.reduce(0) {
                $0 + ($1.amount?.milliunits ?? 0)
            }
        }
        let ledgerUSD: Int64 = 990 + 990 + 990 + 9_990 + 9_990  // r1, r2a, r2b, r3, r5
        let grossUSD = report.revenue.filter { $0.currency == "USD" }.reduce(0) { $0 + $1.gross }
        let netUSD = report.revenue.filter { $0.currency == "USD" }.reduce(0) { $0 + $1.net }
        #expect(
            grossUSD
                == ledgerUSD - amount(.duplicateRecord, "USD") - amount(.sandboxInProduction, "USD")
                + amount(.productionAsSandbox, "USD"))
        #expect(netUSD == grossUSD - amount(.refundedDelivered, "USD"))
        let netJPY = report.revenue.filter { $0.currency == "JPY" }.reduce(0) { $0 + $1.net }
        #expect(netJPY == 1_200_000 - amount(.refundedDelivered, "JPY"))
        #expect(amount(.refundedDelivered, "JPY") == 600_000)
        #expect(report.recoveredFromSandbox == ["USD": 9_990])
        #expect(report.excludedAsSandbox == ["USD": 9_990])
        #expect(
            Set(findings.map(\.code)).isSuperset(of: [
                .duplicateRecord, .sandboxInProduction, .productionAsSandbox, .refundedDelivered,
            ]))
    }

    func reportValues() async throws -> (ReconciliationReport, ReconStore) {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("values"))
        config.bundleIDs = ["com.example.app"]
        let asOf: Int64 = 1_795_176_000_000
        let recon = try config.dependencies(at: asOf)
        let runID = try recon.store.beginRun(command: "test", startedAt: 0, asOf: asOf)
        let detected = try recon.detectionEngine().detect(asOf: asOf, runID: runID)
        let report = try recon.reportStage().assemble(
            store: recon.store, asOf: asOf, revenue: detected.revenue, findings: detected.findings,
            run: RunRecord(
                runID: runID, command: "test", version: "", startedAt: "", finishedAt: "", asOf: "", timeZone: "UTC",
                store: ""))
        return (report, recon.store)
    }
}
