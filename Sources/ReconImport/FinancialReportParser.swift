import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Reads Apple Financial Reports (CONTRACT §1.9) as App Store Connect ("Payments and Financial
/// Reports", `<vendor>_<MMYY>_<region>.txt`) and the App Store Connect API (`financeReports`,
/// `FINANCIAL`) deliver them: tab-separated, gzip or plain, a header row naming the columns (read
/// by name, extra columns ignored), one row per product, country, price and sale or return, then
/// the trailer lines `Total_Rows`, `Total_Amount` and `Total_Units` (an all-regions file may
/// carry one trailer per currency section).
///
/// A Financial Report is Apple's statement of what it owes: it is taken whole or not at all. A
/// malformed row, a missing trailer or rows that do not add up to their trailer (a truncated
/// download) refuse the file in one line naming it, and nothing of it is stored.
///
/// Columns: https://developer.apple.com/help/app-store-connect/reference/financial-report-fields
package enum FinancialReportParser {
    /// The columns this program reads, by the names Apple's header gives them.
    package enum Column: String, CaseIterable {
        case startDate = "Start Date"
        case endDate = "End Date"
        case vendorIdentifier = "Vendor Identifier"
        case quantity = "Quantity"
        case partnerShare = "Partner Share"
        case extendedPartnerShare = "Extended Partner Share"
        case partnerShareCurrency = "Partner Share Currency"
        case salesOrReturn = "Sales or Return"
        case productType = "Product Type Identifier"
        case countryOfSale = "Country Of Sale"
        case customerPrice = "Customer Price"
        case customerCurrency = "Customer Currency"
    }

    /// The report as read (``FinancialReport``).
    package typealias Report = FinancialReport

    /// Why a report is refused: one line naming the file.
    package static func refused(_ path: String, _ reason: String) -> ImportFileError {
        .readFailed(path: path, reason: "\(reason); nothing of this Financial Report is stored")
    }

    /// Reads the whole report at `path`.
    ///
    /// - Throws: ``ImportFileError`` when the file cannot be opened or read, is not a Financial
    ///   Report, has a malformed row, or does not add up to its own trailer.
    package static func parse(_ path: String) throws(ImportFileError) -> Report {
        let reader = try GzipLineReader(path: path)
        guard let header = try reader.nextLine() else {
            throw .readFailed(path: path, reason: "not an Apple Financial Report (empty file)")
        }
        let layout = try Layout(header, path: path, report: "an Apple Financial Report")
        var rows: [FinancialReportRow] = []
        var section = Trailer.Sums()
        var trailer: Trailer?
        var sawTrailer = false
        /// Closes the open trailer: the rows since the previous one must add up to it.
        func close() throws(ImportFileError) {
            guard let open = trailer else { return }
            try open.check(section, path: path)
            section = Trailer.Sums()
            trailer = nil
            sawTrailer = true
        }
        while let text = try reader.nextLine() {
            let line = reader.lineNumber
            if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if let item = Trailer.item(text) {
                var current = trailer ?? Trailer(line: line)
                try current.set(item, text: text, line: line, path: path)
                trailer = current
                continue
            }
            try close()
            // An all-regions file ends with a summary per country after its trailer
            // (`Country Of Sale`, `Partner Share Currency`, `Quantity`, `Extended Partner Share`): Apple's
            // totals of the rows already read, not more rows.
            if sawTrailer, text.hasPrefix(Column.countryOfSale.rawValue) { break }
            let row = try self.row(text, line: line, layout: layout, path: path)
            if let first = rows.first, first.period != row.period {
                throw refused(
                    path,
                    "line \(line): period \(row.period.text) differs from line \(first.line)'s \(first.period.text)")
            }
            section.add(row)
            rows.append(row)
        }
        try close()
        guard sawTrailer, section.rows == 0 else {
            throw refused(
                path, "no Total_Rows, Total_Amount and Total_Units trailer after the last row (a truncated download)")
        }
        guard let period = rows.first?.period else {
            throw refused(path, "no rows: not a fiscal month's report")
        }
        return Report(period: period, region: region(ofFile: path), rows: rows)
    }

    /// The region code of Apple's file name `<vendor>_<MMYY>_<region>.txt` (`45545510_0914_EU.txt`).
    package static func region(ofFile path: String) -> String {
        let name = (path as NSString).lastPathComponent
        let parts = name.split(separator: "_")
        guard parts.count >= 3, parts[0].allSatisfy(\.isNumber), parts[1].count == 4, parts[1].allSatisfy(\.isNumber)
        else { return "" }
        let region = parts[2].prefix { $0.isLetter || $0.isNumber }
        return region.count == 2 ? region.uppercased() : ""
    }

    package typealias Layout = TabSeparatedHeader<Column>

    /// One data row.
    package static func row(_ text: String, line: Int, layout: Layout, path: String) throws(ImportFileError)
        -> FinancialReportRow
    {
        let fields = Layout.fields(text)
        func fail(_ reason: String) -> ImportFileError { refused(path, "line \(line): \(reason)") }
        guard fields.count == layout.width else {
            throw fail("row has \(fields.count) fields, header has \(layout.width)")
        }
        func field(_ column: Column) -> String { layout.index[column].map { fields[$0] } ?? "" }
        guard let start = SalesReportParser.day(field(.startDate)) else {
            throw fail("bad Start Date '\(field(.startDate))' (expected MM/DD/YYYY)")
        }
        guard let end = SalesReportParser.day(field(.endDate)), end >= start else {
            throw fail("bad End Date '\(field(.endDate))' (expected MM/DD/YYYY, not before Start Date)")
        }
        let product = field(.vendorIdentifier)
        guard !product.isEmpty else { throw fail("missing Vendor Identifier") }
        let type = field(.productType)
        guard !type.isEmpty else { throw fail("missing Product Type Identifier") }
        guard let quantity = Int64(field(.quantity)) else { throw fail("bad Quantity '\(field(.quantity))'") }
        let country = field(.countryOfSale).uppercased()
        guard country.count == 2, country.allSatisfy(\.isLetter) else {
            throw fail("bad Country Of Sale '\(field(.countryOfSale))' (expected ISO 3166-1 alpha-2)")
        }
        func money(_ column: Column, currency: Column) throws(ImportFileError) -> Money {
            let code = field(currency).uppercased()
            guard let info = Currency.lookup(code) else {
                throw fail("unknown \(currency.rawValue) '\(field(currency))'")
            }
            do {
                // Apple's per-unit figures may carry more decimals than the currency's minor unit;
                // milliunits hold three.
                return Money(
                    milliunits: try Money.parseDecimal(field(column), maxDecimals: 3, scale: 3), currency: info.code)
            } catch {
                throw fail("bad \(column.rawValue) '\(field(column))': \(error.description)")
            }
        }
        let share = try money(.partnerShare, currency: .partnerShareCurrency)
        let extended = try money(.extendedPartnerShare, currency: .partnerShareCurrency)
        let price = try money(.customerPrice, currency: .customerCurrency)
        let kind = field(.salesOrReturn).uppercased()
        guard kind == "S" || kind == "R" else {
            throw fail("bad Sales or Return '\(field(.salesOrReturn))' (expected S or R)")
        }
        let row = FinancialReportRow(
            period: FiscalPeriod(start: start, end: end), productID: product, productType: type,
            countryCode: country, quantity: quantity, partnerShare: share, extendedPartnerShare: extended,
            customerPrice: price, isReturn: kind == "R", line: line)
        guard row.customerAmount != nil else { throw fail("Quantity × Customer Price is out of range") }
        return row
    }
}
