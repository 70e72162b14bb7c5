import AppStoreSimulator
import Foundation

extension DemoDataset {
    /// The products Apple takes 15 % of: those the demo's catalog prices at 85 % proceeds.
    static var reducedCommissionProducts: Set<String> {
        Set(catalog.filter { $0.proceeds == "0.85" }.map(\.id))
    }

    /// Writes Apple's Financial Reports of ``financialPeriod`` (one per region, under Apple's file
    /// names) and its payment summary into `directory`, as the simulator renders them from its seed
    /// and the developer's other app's sales.
    ///
    /// The summary pays every region; the reports of ``undownloadedReportRegions`` are not written
    /// (finance never downloaded them).
    ///
    /// - Returns: the reports' paths and the summary's; both empty when no fiscal month ended before
    ///   the as-of.
    public func writeFinancialReports(into directory: String) throws -> (reports: [String], payments: [String]) {
        guard let period = financialPeriod else { return ([], []) }
        let zone = TimeZone(identifier: Self.salesReportTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let reports = try SimulatedFinancialReport.reports(
            for: seed, period: period, timeZone: zone, extra: otherAppSales,
            reducedCommission: Self.reducedCommissionProducts)
        var paths: [String] = []
        for report in reports where !undownloadedReportRegions.contains(report.region.code) {
            let path = directory + "/" + report.fileName()
            try Data(report.text.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let payments = directory + "/" + SimulatedPaymentSummary.fileName
        try Data(SimulatedPaymentSummary.text(for: reports).utf8).write(to: URL(fileURLWithPath: payments))
        return (paths, [payments])
    }
}
