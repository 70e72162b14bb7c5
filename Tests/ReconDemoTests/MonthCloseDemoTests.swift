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

/// The simulator's Financial Reports and payment summary of the demo's last closed fiscal month,
/// reconciled against the demo's ledger by the real nightly job: exactly the two disagreements the
/// demo injects.
@Suite struct MonthCloseDemoTests {
    let dir = TemporaryDirectory("demo-month-close")

    @Test func theMonthCloseFindsTheTwoInjectedDisagreementsAndNothingElse() async throws {
        let dataset = try DemoDataset.generate(seed: 7, purchases: 300)
        // The as-of is 2026-11-20: fiscal October (2026-09-27 to 2026-10-31) is the last month that ended.
        let period = try #require(dataset.financialPeriod)
        #expect(period.text == "2026-09-27 to 2026-10-31")
        let finance = try dataset.writeFinancialReports(into: dir.path)
        // This app's regions; the United Kingdom, where only the developer's other app sells, was
        // never downloaded.
        #expect(
            finance.reports.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                "85012345_1026_EU.txt", "85012345_1026_JP.txt", "85012345_1026_US.txt",
            ])
        #expect(finance.payments.map { URL(fileURLWithPath: $0).lastPathComponent } == ["financial_report.csv"])
        for path in finance.reports {
            #expect(try FinancialReportParser.parse(path).period == period)
        }
        let (simulator, simulatorConfig) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"), inputDirectory: dir.path
        )
        var config = simulatorConfig
        config.salesReportTimeZone = DemoDataset.salesReportTimeZone
        do {
            _ = try await config.dependencies(at: dataset.asOf).nightly(
                ImportRequest(
                    transactions: [try dir.write("t.csv", dataset.transactions)],
                    receipts: [try dir.write("r.jsonl", dataset.receipts)],
                    products: [try dir.write("p.csv", dataset.products)], financialReports: finance.reports,
                    payments: finance.payments))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()

        let injected = dataset.injected.filter { [.financialReportMismatch, .paymentMismatch].contains($0.0) }
        #expect(injected.map(\.0) == [.financialReportMismatch, .paymentMismatch])
        let phantom = try #require(injected.first?.1)
        let findings = try dir.read("out/discrepancies.csv").split(separator: "\r\n")
        let close = findings.filter { $0.hasPrefix("FINANCIAL_REPORT_MISMATCH") || $0.hasPrefix("PAYMENT_MISMATCH") }
        #expect(close.count == 2, "\(close)")
        // The ledger's sale Apple never made, named by its transaction.
        #expect(
            close.first?.hasPrefix("FINANCIAL_REPORT_MISMATCH,high,,,,pro_yearly,Production,-44.99,EUR,") == true,
            "\(close)")
        #expect(
            close.first?.contains(
                "pro_yearly in DE EUR: Apple's Financial Report shows 0 units, 0.00 EUR; the ledger 1 unit, 44.99 EUR "
                    + "(transaction \(phantom))") == true)
        // The region Apple paid with no report in the store.
        #expect(close.last?.hasPrefix("PAYMENT_MISMATCH,high,,,,,Production,") == true, "\(close)")
        #expect(
            close.last?.contains("pays United Kingdom (GBP)") == true
                && close.last?.contains("no Financial Report in the store covers GBP") == true)
        // The phantom makes no other finding.
        #expect(findings.filter { $0.contains(phantom) }.count == 1)

        let financial = try dir.read("out/financial_reconciliation.csv").split(separator: "\r\n").dropFirst()
        #expect(
            financial.filter { $0.hasSuffix(",mismatch") }.map {
                $0.split(separator: ",")[2...4].joined(separator: " ")
            } == ["pro_yearly DE EUR"])
        #expect(financial.filter { $0.hasSuffix(",match") }.count >= 10)
        #expect(financial.allSatisfy { $0.hasPrefix("2026-09-27,2026-10-31,") })

        let months = try dir.read("out/month_close.csv").split(separator: "\r\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        // Region currency, withholding tax, status.
        #expect(
            months.map { [$0[2], $0[11], $0[16]].joined(separator: " ") } == [
                "EUR 0.00 mismatch", "GBP 0.00 mismatch", "JPY \(months[2][11]) match", "USD 0.00 match",
            ])
        #expect(months[2][11].hasPrefix("-"), "Japan's withholding tax")
        #expect(months.allSatisfy { $0[15] == "USD" })
    }
}
