import ReconFindings
import ReconModel
import ReconStorage

/// The `Month Close` sheet: for each Apple fiscal month, a statement a controller reads top to bottom,
/// one column per region currency (ledger → Apple → owed → paid), then every product and country
/// compared (`financial_reconciliation.csv`).
extension XLSXReportWriter {
    package static func monthClose(_ close: MonthCloseReport) -> XLSXSheet {
        var rows = [
            XLSXRow([.text("Month close: the ledger → Apple's Financial Reports → owed → paid")], style: .title)
        ]
        rows.append(
            XLSXRow([
                .text(
                    "Apple's fiscal months (Sunday to Saturday) as its reports print them; ledger sales and refunds "
                        + "dated in \(close.timeZone)")
            ]))
        let byPeriod = Dictionary(grouping: close.lines, by: \.key.period)
        for period in byPeriod.keys.sorted() {
            let lines = (byPeriod[period] ?? []).sorted { $0.key < $1.key }
            rows.append(XLSXRow([]))
            rows.append(XLSXRow([.text("Fiscal \(period.month.text) (\(period.text))")], style: .title))
            rows.append(XLSXRow([.text("Region currency")] + lines.map { .text($0.key.currency) }, style: .header))
            func row(_ label: String, _ cell: (MonthCloseLine) -> XLSXCell) {
                rows.append(XLSXRow([.text(label)] + lines.map(cell)))
            }
            func money(_ milli: Int64, _ line: MonthCloseLine) -> XLSXCell {
                .money(Money(milliunits: milli, currency: line.key.currency))
            }
            row("Ledger: in-app units (sales less refunds)") { .integer($0.figures.ledgerUnits) }
            row("Ledger: customer amount") { money($0.figures.ledgerCustomerAmount, $0) }
            row("Apple: units (the whole report)") { .integer($0.figures.appleUnits) }
            row("Apple: customer amount") { money($0.figures.appleCustomerAmount, $0) }
            row("Apple: proceeds earned (Extended Partner Share)") { money($0.figures.appleProceeds, $0) }
            row("Ledger: proceeds expected") { money($0.figures.ledgerExpectedProceeds(currency: $0.key.currency), $0) }
            row("Payment: earned") { line in line.payment.map { money($0.earned, line) } ?? .text("no payment summary")
            }
            row("Payment: input tax") { line in line.payment.map { money($0.inputTax, line) } ?? .empty }
            row("Payment: adjustments") { line in line.payment.map { money($0.adjustments, line) } ?? .empty }
            row("Payment: withholding tax") { line in line.payment.map { money($0.withholdingTax, line) } ?? .empty }
            row("Payment: total owed") { line in line.payment.map { money($0.totalOwed, line) } ?? .empty }
            row("Exchange rate") { line in line.payment.map { .text($0.exchangeRate) } ?? .empty }
            row("Paid to the bank") { line in
                line.payment.map { .money(Money(milliunits: $0.paid, currency: $0.bankCurrency)) } ?? .empty
            }
            rows.append(XLSXRow([.text("Status")] + lines.map { .text($0.status) }, style: .total))
        }
        if close.lines.isEmpty {
            rows.append(XLSXRow([.text("No fiscal month that ended by the as-of is covered by a Financial Report")]))
        }
        rows.append(XLSXRow([]))
        rows.append(XLSXRow([.text("Per product, country and customer currency (in-app purchases)")], style: .title))
        // The product first: it reads in the wide label column; the period's dates follow.
        let header = CSVReports.financialReconciliationHeader
        rows.append(XLSXRow((Array(header[2...]) + Array(header[..<2])).map { .text($0) }, style: .header))
        for line in close.financial {
            let key = line.key
            func m(_ milli: Int64) -> XLSXCell { .amount(Money(milliunits: milli, currency: key.currency)) }
            rows.append(
                XLSXRow([
                    .text(key.productID), .text(key.country), .text(key.currency), .integer(line.appleUnits),
                    .integer(line.ledgerUnits), m(line.appleAmount), m(line.ledgerAmount),
                    line.appleProceeds.map { .amount($0) } ?? .empty, .text(line.appleProceeds?.currency ?? ""),
                    .text(line.matches ? "match" : "mismatch"), .date(date(key.period.start)),
                    .date(date(key.period.end)),
                ]))
        }
        return XLSXSheet(name: "Month Close", rows: rows, columnWidths: [46])
    }
}
