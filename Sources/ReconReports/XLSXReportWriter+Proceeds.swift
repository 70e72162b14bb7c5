import ReconFindings
import ReconModel
import ReconStorage

/// The Summary's proceeds: how much of them Apple stated, and how much is the catalog's or an estimate.
extension XLSXReportWriter {
    /// Proceeds per currency and source (a day's source is its weakest sale's, CONTRACT §5
    /// `proceeds_source`), strongest source first; nothing when there is no revenue.
    package static func proceedsBySource(_ report: ReconciliationReport) -> [XLSXRow] {
        var sums: [String: [ProceedsSource: Int64]] = [:]
        for row in report.revenue {
            sums[row.proceedsCurrency, default: [:]][row.proceedsSource, default: 0] = Money.sum(
                sums[row.proceedsCurrency]?[row.proceedsSource] ?? 0, row.proceeds)
        }
        guard !sums.isEmpty else { return [] }
        var rows = [
            XLSXRow([]),
            XLSXRow([.text("Proceeds: Apple's where its reports state them")], style: .title),
            XLSXRow(["Currency", "Source", "Proceeds"].map { .text($0) }, style: .header),
        ]
        for currency in sums.keys.sorted() {
            for source in ProceedsSource.allCases {
                guard let milli = sums[currency]?[source] else { continue }
                rows.append(
                    XLSXRow([
                        .text(currency), .text(source.label), .amount(Money(milliunits: milli, currency: currency)),
                    ]))
            }
        }
        return rows
    }
}
