import AppStoreSimulator
import Foundation

extension DemoDataset {
    /// Writes Apple's Summary Sales Report of every ``salesReportDays`` day into `directory`,
    /// gzip-compressed under Apple's file names, as the simulator renders them from its seed.
    ///
    /// - Returns: the files' paths, by day.
    public func writeSalesReports(into directory: String) throws -> [String] {
        let zone = TimeZone(identifier: Self.salesReportTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        return try salesReportDays.map { day in
            let path = directory + "/" + SimulatedSalesReport.fileName(day: day)
            let text = SimulatedSalesReport.summary(for: seed, day: day, timeZone: zone)
            try SimulatedSalesReport.writeGzip(text, to: path)
            return path
        }
    }
}
