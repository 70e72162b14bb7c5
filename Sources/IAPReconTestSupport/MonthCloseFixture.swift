import Foundation

/// A fiscal month of Apple's books beside a small ledger, with a known disagreement of each kind: the month close's
/// test inputs (CONTRACT §1.9, §5).
///
/// Apple's fiscal October 2026 runs Sunday 2026-09-27 to Saturday 2026-10-31 (five weeks); the reports print it and
/// nothing here computes it. Partner shares are what Apple pays after the VAT it takes out first and its commission:
/// 4.99 EUR in France (20 % VAT) pays 4.99 / 1.20 × 0.70 = 2.91 EUR, in Germany (19 %) 2.94 EUR; 0.79 GBP in the UK
/// pays 0.46 GBP. Apple's report counts one German sale where the ledger has two (`FINANCIAL_REPORT_MISMATCH`), and
/// the payment summary pays Japan, which has no report (`PAYMENT_MISMATCH`).
public enum MonthCloseFixture {
    /// The as-of of the runs: after the fiscal month ended.
    public static let asOf = "2026-11-20T00:00:00Z"

    public static let ledgerHeader =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"

    public static let financialHeader = [
        "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
        "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
        "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
        "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
        "Customer Price", "Customer Currency",
    ].joined(separator: "\t")

    /// One Financial Report row of fiscal October 2026, as Apple writes it.
    public static func row(
        _ product: String, _ quantity: Int, share: String, extended: String, currency: String, country: String,
        price: String
    ) -> String {
        [
            "09/27/2026", "10/31/2026", "", "", product, String(quantity), share, extended, currency,
            quantity < 0 ? "R" : "S", "6447000001", "Example Developer", product, "", "", "IA1", "", country, "", "",
            price, currency,
        ].joined(separator: "\t")
    }

    public static let euroZone =
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

    public static let unitedKingdom =
        [
            financialHeader,
            row("coins", 2, share: "0.46", extended: "0.92", currency: "GBP", country: "GB", price: "0.79"),
            "Total_Rows\t1", "Total_Amount\t0.92", "Total_Units\t2",
        ].joined(separator: "\n") + "\n"

    /// Apple's payment summary of fiscal October 2026: Japan was paid, but no Japanese report is in the store.
    public static let payments = """
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

    public static let products = """
        product_id,type,price,currency,storefront,proceeds_rate,proceeds
        coins,consumable,4.99,EUR,,,
        coins,consumable,4.99,EUR,FRA,,2.91
        coins,consumable,0.79,GBP,GBR,,

        """

    public static let ledger =
        [
            Self.ledgerHeader,
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

    /// The inputs' paths once written.
    public struct Paths: Sendable {
        public var ledger: String
        public var products: String
        public var euroZone: String
        public var unitedKingdom: String
        public var payments: String
    }

    /// Writes every input into `dir` under Apple's file names.
    public static func write(into dir: TemporaryDirectory) throws -> Paths {
        Paths(
            ledger: try dir.write("tx.csv", ledger), products: try dir.write("p.csv", products),
            euroZone: try dir.write("85512345_1026_EU.txt", euroZone),
            unitedKingdom: try dir.write("85512345_1026_GB.txt", unitedKingdom),
            payments: try dir.write("financial_report.csv", payments))
    }
}
