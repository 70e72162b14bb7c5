import ReconFindings
import ReconModel
import ReconStorage

/// The `Apple Sales` sheet and the Summary's lines about Apple's Summary Sales Reports.
extension XLSXReportWriter {
    /// Every reconciled key with both sides' figures and its status (`sales_reconciliation.csv`).
    package static func appleSales(_ sales: SalesReconciliationReport) -> XLSXSheet {
        var rows = [
            XLSXRow(CSVReports.salesReconciliationHeader.map { .text($0) }, style: .header)
        ]
        for line in sales.lines {
            let key = line.key
            func m(_ milli: Int64) -> XLSXCell { .amount(Money(milliunits: milli, currency: key.currency)) }
            rows.append(
                XLSXRow([
                    .date(date(key.day)), .text(key.productID), .text(key.storefront), .text(key.currency),
                    .integer(line.appleUnits), .integer(line.ledgerUnits), m(line.appleAmount), m(line.ledgerAmount),
                    .text(line.matches ? "match" : "mismatch"),
                ]))
        }
        return XLSXSheet(name: "Apple Sales", rows: rows, columnWidths: [12], headerRow: 0)
    }

    /// The Summary's section on the sales reports: which days were compared, in which time zone, how many keys
    /// disagree, and how many of Apple's rows belong to other apps of the developer account (left out).
    ///
    /// Nothing when no report is in the store.
    package static func appleSalesSummary(_ sales: SalesReconciliationReport?) -> [XLSXRow] {
        guard let sales else { return [] }
        let mismatches = sales.lines.filter { !$0.matches }.count
        return [
            XLSXRow([]),
            XLSXRow([.text("Apple Summary Sales Reports")], style: .title),
            XLSXRow([.text("Days compared (\(sales.timeZone))"), .text(sales.comparedDaysText)]),
            XLSXRow([.text("Days, products, storefronts, currencies compared"), .integer(Int64(sales.lines.count))]),
            XLSXRow([.text("Of which disagree (SALES_REPORT_MISMATCH)"), .integer(Int64(mismatches))]),
            XLSXRow([.text("Rows of other apps, not compared"), .integer(Int64(sales.rowsOfOtherApps))]),
        ] + otherAppSKUs(sales)
    }

    /// The SKUs of the other apps' rows, the first ``listedSKUs`` of them, so a product of this app missing from
    /// the catalog and the ledger is easy to spot.
    private static func otherAppSKUs(_ sales: SalesReconciliationReport) -> [XLSXRow] {
        let skus = sales.skusOfOtherApps
        guard !skus.isEmpty else { return [] }
        let more = skus.count > listedSKUs ? " and \(skus.count - listedSKUs) more" : ""
        return [
            XLSXRow([.text("Their SKUs"), .text(skus.prefix(listedSKUs).joined(separator: ", ") + more)])
        ]
    }

    /// The most SKUs of other apps the Summary lists.
    package static let listedSKUs = 20
}
