import Foundation
import IAPReconTestSupport
import Testing

/// `--financial-report` and `--payments` on the built binary: the month close of a ledger with a
/// known disagreement of each kind (CONTRACT §1.9, §4, §5).
///
/// Apple's fiscal October 2026 runs Sunday 2026-09-27 to Saturday 2026-10-31 (five weeks); the
/// reports print it and nothing here computes it. Partner shares are what Apple pays after the VAT
/// it takes out first and its commission: 4.99 EUR in France (20 % VAT) pays 4.99 / 1.20 × 0.70 =
/// 2.91 EUR, in Germany (19 %) 2.94 EUR; 0.79 GBP in the UK pays 0.46 GBP.
@Suite struct MonthCloseCommandTests {
    let dir = TemporaryDirectory("cli-month-close")

    static let financialHeader = [
        "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
        "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
        "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
        "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
        "Customer Price", "Customer Currency",
    ].joined(separator: "\t")

    /// One Financial Report row of fiscal October 2026, as Apple writes it.
    static func row(
        _ product: String, _ quantity: Int, share: String, extended: String, currency: String, country: String,
        price: String
    ) -> String {
        [
            "09/27/2026", "10/31/2026", "", "", product, String(quantity), share, extended, currency,
            quantity < 0 ? "R" : "S", "6447000001", "Example Developer", product, "", "", "IA1", "", country, "", "",
            price, currency,
        ].joined(separator: "\t")
    }

    static let euroZone =
        [
            financialHeader,
            row("coins", 3, share: "2.91", extended: "8.73", currency: "EUR", country: "FR", price: "4.99"),
            // The ledger delivered two in Germany: Apple booked one.
            row("coins", 1, share: "2.94", extended: "2.94", currency: "EUR", country: "DE", price: "4.99"),
            // Another app of the same developer account: Apple owes it, but it is not this app's sale.
            row(
                "com.example.other.gems", 5, share: "1.16", extended: "5.80", currency: "EUR", country: "FR",
                price: "1.99"),
            "Total_Rows\t3", "Total_Amount\t17.47", "Total_Units\t9",
        ].joined(separator: "\n") + "\n"

    static let unitedKingdom =
        [
            financialHeader,
            row("coins", 2, share: "0.46", extended: "0.92", currency: "GBP", country: "GB", price: "0.79"),
            "Total_Rows\t1", "Total_Amount\t0.92", "Total_Units\t2",
        ].joined(separator: "\n") + "\n"

    /// Apple's payment summary of fiscal October 2026: Japan was paid, but no Japanese report is in the store.
    static let payments = """
        "App Store Connect - Payments and Financial Reports\t(October, 2026)",,,,,,,,,,,,
        ,,,,,,,,,,,,
        Region (Currency),Units Sold,Earned,Pre-Tax Subtotal,Input Tax,Adjustments,Withholding Tax,Total Owed,Exchange Rate,Proceeds,Bank Account Currency,
        Euro-Zone (EUR),"9","17.47","17.47","0","0","0","17.47","1.00000","17.47","EUR",
        Japan (JPY),"2","300","300","0","0","-60","240","0.00620","1.49","EUR",
        United Kingdom (GBP),"2","0.92","0.92","0","0","0","0.92","1.15000","1.06","EUR",
        ,,,,,,,,,,,,
        ,,,,,,,,,,"20.02" EUR,,
        ,,,,,,,,,,Paid to EXAMPLE BANK -****1299,,

        """

    static let products = """
        product_id,type,price,currency,storefront,proceeds_rate,proceeds
        coins,consumable,4.99,EUR,,,
        coins,consumable,4.99,EUR,FRA,,2.91
        coins,consumable,0.79,GBP,GBR,,

        """

    static let ledger =
        [
            CommandLineTests.header,
            "r1,u1,coins,t1,,2026-10-05T10:00:00-07:00,1,Production,4.99,EUR,FRA,verified,2026-10-05T10:00:01-07:00,2026-10-05T10:00:01-07:00,",
            "r2,u2,coins,t2,,2026-10-05T11:00:00-07:00,1,Production,4.99,EUR,FRA,verified,2026-10-05T11:00:01-07:00,2026-10-05T11:00:01-07:00,",
            "r3,u3,coins,t3,,2026-10-05T12:00:00-07:00,1,Production,4.99,EUR,FRA,verified,2026-10-05T12:00:01-07:00,2026-10-05T12:00:01-07:00,",
            "r4,u4,coins,t4,,2026-10-06T10:00:00-07:00,1,Production,4.99,EUR,DEU,verified,2026-10-06T10:00:01-07:00,2026-10-06T10:00:01-07:00,",
            "r5,u5,coins,t5,,2026-10-06T11:00:00-07:00,1,Production,4.99,EUR,DEU,verified,2026-10-06T11:00:01-07:00,2026-10-06T11:00:01-07:00,",
            "r6,u6,coins,t6,,2026-10-20T10:00:00-07:00,2,Production,0.79,GBP,GBR,verified,2026-10-20T10:00:01-07:00,2026-10-20T10:00:01-07:00,",
            // November, after the fiscal month: the catalog's French proceeds, and a Spanish sale only estimated.
            "r7,u7,coins,t7,,2026-11-02T10:00:00-08:00,1,Production,4.99,EUR,FRA,verified,2026-11-02T10:00:01-08:00,2026-11-02T10:00:01-08:00,",
            "r8,u8,coins,t8,,2026-11-02T11:00:00-08:00,1,Production,4.99,EUR,ESP,verified,2026-11-02T11:00:01-08:00,2026-11-02T11:00:01-08:00,",
        ].joined(separator: "\n") + "\n"

    func run() throws -> ProcessOutput {
        let eu = try dir.write("85512345_1026_EU.txt", Self.euroZone)
        let gb = try dir.write("85512345_1026_GB.txt", Self.unitedKingdom)
        let paid = try dir.write("financial_report.csv", Self.payments)
        return try runIAPRecon([
            "run", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--transactions",
            try dir.write("tx.csv", Self.ledger), "--products", try dir.write("p.csv", Self.products),
            "--financial-report", eu, "--financial-report", gb, "--payments", paid, "--timezone",
            "America/Los_Angeles", "--as-of", "2026-11-20T00:00:00Z", "--fail-on", "high",
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
        let cut = Self.euroZone.components(separatedBy: "\n").prefix(3).joined(separator: "\n") + "\n"
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
