import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import Logging
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

/// The simulator's Summary Sales Reports of its own dataset, reconciled against the demo's
/// ledger by the real nightly job.
@Suite struct SalesReportDemoTests {
    let dir = TemporaryDirectory("demo-sales")
    let logger = Logger.quiet

    @Test func theReconciliationFindsTheTwoInjectedDisagreementsAndNothingElse() async throws {
        let dataset = try DemoDataset.generate(seed: 7, purchases: 300)
        let (simulator, simulatorConfig) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"), inputDirectory: dir.path
        )
        var config = simulatorConfig
        config.salesReportTimeZone = DemoDataset.salesReportTimeZone
        let reports = try dataset.writeSalesReports(into: dir.path)
        #expect(
            reports.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                "S_D_85012345_20261108.txt.gz", "S_D_85012345_20261109.txt.gz", "S_D_85012345_20261110.txt.gz",
            ])
        do {
            _ = try await config.dependencies(at: dataset.asOf).nightly(
                ImportRequest(
                    transactions: [try dir.write("t.csv", dataset.transactions)],
                    receipts: [try dir.write("r.jsonl", dataset.receipts)],
                    products: [try dir.write("p.csv", dataset.products)],
                    salesReports: reports))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()

        let lines = try dir.read("out/sales_reconciliation.csv").split(separator: "\r\n").dropFirst()
        let mismatches = lines.filter { $0.hasSuffix(",mismatch") }.map {
            $0.split(separator: ",").prefix(4).joined(separator: " ")
        }
        #expect(mismatches == ["2026-11-09 coins_1000 FRA EUR", "2026-11-09 season_pass USA USD"])
        #expect(lines.filter { $0.hasSuffix(",match") }.count >= 10)
        let days = Set(lines.map { $0.prefix(10) })
        #expect(days == ["2026-11-08", "2026-11-09", "2026-11-10"])

        let injected = dataset.injected.filter { $0.0 == .salesReportMismatch }.map(\.1)
        #expect(injected.count == 2)
        let findings = try dir.read("out/discrepancies.csv").split(separator: "\r\n").filter {
            $0.hasPrefix("SALES_REPORT_MISMATCH")
        }
        #expect(findings.count == 2)
        // The ledger's phantom purchase is named; Apple's unbooked sale is in Apple's figure only.
        #expect(findings.filter { $0.contains(injected[1]) }.count == 1)
        #expect(!findings.contains { $0.contains(injected[0]) })
        // Neither injected transaction makes any other finding.
        let others = try dir.read("out/discrepancies.csv").split(separator: "\r\n").filter {
            !$0.hasPrefix("SALES_REPORT_MISMATCH") && ($0.contains(injected[0]) || $0.contains(injected[1]))
        }
        #expect(others.isEmpty)
    }

    /// Apple writes a refund as negative units at a negative customer price, on the day of the
    /// refund; a partial (prorated) refund as 0 units with the refunded amount, negative; Developer Proceeds
    /// positive on every row, refunds too
    /// (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report).
    @Test func theSimulatorsReportWritesRefundsAsNegativeUnits() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let bought = try #require(Timestamp.parse("2026-11-09T10:00:00-08:00"))
        let refunded = try #require(Timestamp.parse("2026-11-09T23:30:00-08:00"))
        func transaction(_ id: String, prorated: Bool) -> SimulatorTransaction {
            SimulatorTransaction(
                transactionId: id, originalTransactionId: id, productId: "season_pass", bundleId: "com.example.app",
                environment: "Production", purchaseDate: bought, expiresDate: nil, quantity: 1,
                type: "Non-Renewing Subscription", price: 19_980, currency: "USD", storefront: "USA",
                revocationDate: refunded, revocationReason: 1,
                revocationType: prorated ? "REFUND_PRORATED" : "REFUND_FULL",
                revocationPercentage: prorated ? 50_000 : nil, orderId: nil)
        }
        let seed = SimulatorSeed(
            bundleId: "com.example.app", appAppleId: 42, sharedSecret: nil, historyPageSize: 20, apiKey: nil,
            transactions: [transaction("1", prorated: false), transaction("2", prorated: true)], receipts: [])
        let day = Timestamp.dayAndSecond(bought, in: zone).day
        let text = SimulatedSalesReport.summary(for: seed, day: day, timeZone: zone)
        let rows = text.split(separator: "\n").dropFirst().map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(rows.allSatisfy { $0.count == SimulatedSalesReport.header.count })
        // SKU, type, units, begin date, country, customer price.
        #expect(
            rows.map { [$0[2], $0[6], $0[7], $0[9], $0[12], $0[15]].joined(separator: " ") } == [
                "demo_app 1 \(40 + day % 17) 11/09/2026 US 0.00", "season_pass IAC -1 11/09/2026 US -19.98",
                "season_pass IAC 2 11/09/2026 US 19.98", "season_pass IAC 0 11/09/2026 US -9.99",
            ])
        // Developer Proceeds: 70 % of the price, positive on the refund rows too.
        #expect(rows.dropFirst().map { String($0[8]) } == ["13.99", "13.99", "6.99"])
    }
}
