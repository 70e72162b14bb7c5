import Foundation
import IAPReconTestSupport
import Testing

/// `--financial-report` and `--payments` on the built binary: the month close of a ledger with a
/// known disagreement of each kind (CONTRACT §1.9, §4, §5), on ``MonthCloseFixture``'s files.
@Suite struct MonthCloseCommandTests {
    let dir = TemporaryDirectory("cli-month-close")
    typealias Files = MonthCloseFixture

    func run() throws -> ProcessOutput {
        let files = try MonthCloseFixture.write(into: dir)
        return try runIAPRecon(
            [
                "run", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--transactions", files.ledger,
                "--products", files.products, "--financial-report", files.euroZone, "--financial-report",
                files.unitedKingdom, "--payments", files.payments, "--timezone", "America/Los_Angeles", "--as-of",
                MonthCloseFixture.asOf, "--fail-on", "high",
            ])
    }

    @Test func theMonthCloseGoesFromTheLedgerToTheBankAndNamesEachDisagreement() throws {
        let result = try run()
        #expect(result.exitCode == 3, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "financial-report \(dir.file("85512345_1026_EU.txt")): read 3, accepted 3, rejected 0"))
        #expect(result.stdout.contains("payments \(dir.file("financial_report.csv")): read 3, accepted 3, rejected 0"))
        let close = try dir.read("out/month_close.csv")
        #expect(
            close == """
                period_start,period_end,region_currency,ledger_units,ledger_customer_amount,apple_units,apple_customer_amount,apple_proceeds,ledger_expected_proceeds,input_tax,adjustments,withholding_tax,total_owed,exchange_rate,paid,bank_currency,status\r
                2026-09-27,2026-10-31,EUR,5,24.95,9,29.91,17.47,14.61,0.00,0.00,0.00,17.47,1.00000,17.47,EUR,mismatch\r
                2026-09-27,2026-10-31,GBP,2,1.58,2,1.58,0.92,0.92,0.00,0.00,0.00,0.92,1.15000,1.06,EUR,match\r
                2026-09-27,2026-10-31,JPY,0,0,0,0,0,0,0,0,-60,240,0.00620,1.49,EUR,mismatch\r

                """)
        let financial = try dir.read("out/financial_reconciliation.csv")
        #expect(
            financial == """
                period_start,period_end,product_id,country,customer_currency,apple_units,ledger_units,apple_customer_amount,ledger_customer_amount,apple_proceeds,proceeds_currency,status\r
                2026-09-27,2026-10-31,coins,DE,EUR,1,2,4.99,9.98,2.94,EUR,mismatch\r
                2026-09-27,2026-10-31,coins,FR,EUR,3,3,14.97,14.97,8.73,EUR,match\r
                2026-09-27,2026-10-31,coins,GB,GBP,2,2,1.58,1.58,0.92,GBP,match\r

                """)
        let findings = try dir.read("out/discrepancies.csv")
        #expect(
            findings == """
                code,severity,transaction_id,original_transaction_id,user_ids,product_id,environment,amount,currency,detected_at,detail\r
                FINANCIAL_REPORT_MISMATCH,high,,,,coins,Production,-4.99,EUR,2026-11-20T00:00:00Z,"In fiscal October 2026 (2026-09-27 to 2026-10-31) coins in DE EUR: Apple's Financial Report shows 1 unit, 4.99 EUR; the ledger 2 units, 9.98 EUR (transactions t4, t5)"\r
                PAYMENT_MISMATCH,high,,,,,Production,300,JPY,2026-11-20T00:00:00Z,"Apple's payment summary for fiscal October 2026 pays Japan (JPY) (earned 300 JPY), but no Financial Report in the store covers JPY for that month"\r

                """)
        #expect(!findings.contains("gems"), "another app's product is never this ledger's finding")
    }

    /// CONTRACT §5 `proceeds`: Apple's partner share where its report covers the sale, the catalog's per-storefront
    /// proceeds, else the rate estimate; a day mixing sources names the weakest.
    @Test func revenueShowsApplesProceedsAndWhereEachFigureComesFrom() throws {
        let result = try run()
        #expect(result.exitCode == 3, "\(result.stderr)")
        let revenue = try dir.read("out/revenue_daily.csv")
        #expect(
            revenue == """
                date,product_id,currency,units,gross,refunds,net,estimated_proceeds,proceeds,proceeds_currency,proceeds_source\r
                2026-10-05,coins,EUR,3,14.97,0.00,14.97,10.48,8.73,EUR,financial-report\r
                2026-10-06,coins,EUR,2,9.98,0.00,9.98,6.99,5.88,EUR,financial-report\r
                2026-10-20,coins,GBP,2,1.58,0.00,1.58,1.11,0.92,GBP,financial-report\r
                2026-11-02,coins,EUR,2,9.98,0.00,9.98,6.99,6.40,EUR,estimate\r

                """)
    }

    @Test func aTruncatedFinancialReportIsRefusedWholeAndNothingOfItIsStored() throws {
        let cut = Files.euroZone.components(separatedBy: "\n").prefix(3).joined(separator: "\n") + "\n"
        let eu = try dir.write("85512345_1026_EU.txt", cut)
        let result = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--financial-report", eu])
        #expect(result.exitCode == 1)
        #expect(
            result.stderr.contains(
                "cannot read '\(eu)': no Total_Rows, Total_Amount and Total_Units trailer after the last row "
                    + "(a truncated download); nothing of this Financial Report is stored"), "\(result.stderr)")
        let report = try runIAPRecon([
            "report", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--as-of", "2026-11-20T00:00:00Z",
        ])
        #expect(report.exitCode == 0, "\(report.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out/month_close.csv")))
    }
}
