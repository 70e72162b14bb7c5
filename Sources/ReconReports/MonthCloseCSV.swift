import ReconFindings
import ReconModel
import ReconStorage

/// `month_close.csv` and `financial_reconciliation.csv` (CONTRACT §5).
extension CSVReports {
    public static let monthCloseHeader = [
        "period_start", "period_end", "region_currency", "ledger_units", "ledger_customer_amount", "apple_units",
        "apple_customer_amount", "apple_proceeds", "ledger_expected_proceeds", "input_tax", "adjustments",
        "withholding_tax", "total_owed", "exchange_rate", "paid", "bank_currency", "status",
    ]

    public static let financialReconciliationHeader = [
        "period_start", "period_end", "product_id", "country", "customer_currency", "apple_units", "ledger_units",
        "apple_customer_amount", "ledger_customer_amount", "apple_proceeds", "proceeds_currency", "status",
    ]

    /// One row per fiscal month and region currency: the ledger, Apple's report, then what Apple owed and
    /// paid (empty when no payment summary covers the month).
    public static func monthClose(_ close: MonthCloseReport) -> CSVTable {
        CSVTable(
            header: monthCloseHeader,
            rows: close.lines.map { line in
                let currency = line.key.currency
                let f = line.figures
                func money(_ milli: Int64, _ code: String = currency) -> CSVCell {
                    .number(Money(milliunits: milli, currency: code).formatted)
                }
                let paid: [CSVCell] =
                    line.payment.map { p in
                        [
                            money(p.inputTax), money(p.adjustments), money(p.withholdingTax), money(p.totalOwed),
                            .number(p.exchangeRate), money(p.paid, p.bankCurrency), .text(p.bankCurrency),
                        ]
                    } ?? Array(repeating: .text(""), count: 7)
                return [
                    .text(Timestamp.dayString(line.key.period.start)), .text(Timestamp.dayString(line.key.period.end)),
                    .text(currency), .number(String(f.ledgerUnits)), money(f.ledgerCustomerAmount),
                    .number(String(f.appleUnits)), money(f.appleCustomerAmount), money(f.appleProceeds),
                    money(f.ledgerExpectedProceeds(currency: currency)),
                ] + paid + [.text(line.status)]
            })
    }

    /// One row per fiscal month, product, country and customer currency present on either side.
    public static func financialReconciliation(_ close: MonthCloseReport) -> CSVTable {
        CSVTable(
            header: financialReconciliationHeader,
            rows: close.financial.map { line in
                let key = line.key
                func money(_ milli: Int64) -> CSVCell {
                    .number(Money(milliunits: milli, currency: key.currency).formatted)
                }
                return [
                    .text(Timestamp.dayString(key.period.start)), .text(Timestamp.dayString(key.period.end)),
                    .text(key.productID), .text(key.country), .text(key.currency), .number(String(line.appleUnits)),
                    .number(String(line.ledgerUnits)), money(line.appleAmount), money(line.ledgerAmount),
                    .number(line.appleProceeds?.formatted ?? ""), .text(line.appleProceeds?.currency ?? ""),
                    .text(line.matches ? "match" : "mismatch"),
                ]
            })
    }
}
