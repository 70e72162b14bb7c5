import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Reads Apple Summary Sales Reports (CONTRACT §1.5): tab-separated, gzip or plain, a header row
/// naming the columns (read by name, extra columns ignored), then one row per product,
/// territory, currency and price.
///
/// Columns: https://developer.apple.com/help/app-store-connect/reference/summary-sales-report
package enum SalesReportParser {
    /// The columns this program reads, by the names Apple's header gives them.
    package enum Column: String, CaseIterable {
        case sku = "SKU"
        case productType = "Product Type Identifier"
        case units = "Units"
        case beginDate = "Begin Date"
        case endDate = "End Date"
        case customerCurrency = "Customer Currency"
        case countryCode = "Country Code"
        case customerPrice = "Customer Price"
        case developerProceeds = "Developer Proceeds"
        case proceedsCurrency = "Currency of Proceeds"
        case parentIdentifier = "Parent Identifier"

        /// Columns an older report may lack: a row of such a report has no proceeds (unless both
        /// proceeds columns are there) or no parent.
        package static let optional: Set<Column> = [.developerProceeds, .proceedsCurrency, .parentIdentifier]
    }

    /// What one data row of a report is.
    package enum Outcome: Sendable {
        /// An in-app purchase row.
        case sale(SalesReportRow)
        /// A row of another product type (an app download, an update, ...): it covers `day`
        /// but is not compared.
        case skipped(day: Int)
        case rejected(RejectedRow)
    }

    package typealias Layout = TabSeparatedHeader<Column>

    /// Reads every row of the report at `path`, handing each outcome to `emit` in file order.
    ///
    /// - Throws: ``ImportFileError`` when the file cannot be opened or read, or its header is
    ///   not a sales report's; whatever `emit` throws.
    package static func parse(_ path: String, emit: (Outcome) throws -> Void) throws {
        let reader = try GzipLineReader(path: path)
        guard let header = try reader.nextLine() else {
            throw ImportFileError.readFailed(path: path, reason: "not an Apple Summary Sales Report (empty file)")
        }
        let layout = try Layout(
            header, path: path, optional: Column.optional, report: "an Apple Summary Sales Report")
        while let text = try reader.nextLine() {
            if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            try emit(outcome(text, line: reader.lineNumber, layout: layout, path: path))
        }
    }

    /// One data row's outcome.
    package static func outcome(_ text: String, line: Int, layout: Layout, path: String) -> Outcome {
        let fields = Layout.fields(text)
        func field(_ column: Column) -> String { layout.index[column].map { fields[$0] } ?? "" }
        func reject(_ reason: String) -> Outcome {
            let sku = fields.count == layout.width ? field(.sku) : nil
            return .rejected(
                RejectedRow(
                    kind: .salesReports, source: path, line: line, recordID: sku?.isEmpty == false ? sku : nil,
                    reason: reason, raw: text))
        }
        guard fields.count == layout.width else {
            return reject("row has \(fields.count) fields, header has \(layout.width)")
        }
        guard let day = day(field(.beginDate)) else {
            return reject("bad Begin Date '\(field(.beginDate))' (expected MM/DD/YYYY)")
        }
        guard let end = Self.day(field(.endDate)) else {
            return reject("bad End Date '\(field(.endDate))' (expected MM/DD/YYYY)")
        }
        guard end == day else {
            return reject("not a daily report row: Begin Date \(field(.beginDate)) ≠ End Date \(field(.endDate))")
        }
        let type = field(.productType)
        guard SalesReportRow.inAppPurchaseTypes.contains(type) else {
            return type.isEmpty ? reject("missing Product Type Identifier") : .skipped(day: day)
        }
        let sku = field(.sku)
        guard !sku.isEmpty else { return reject("missing SKU") }
        guard let units = Int64(field(.units)) else { return reject("bad Units '\(field(.units))'") }
        let country = field(.countryCode)
        guard country.count == 2, let storefront = Territory.alpha3(country) else {
            return reject("unknown Country Code '\(country)' (expected ISO 3166-1 alpha-2)")
        }
        let currency = field(.customerCurrency)
        let price: Money
        do {
            price = try Money.parse(field(.customerPrice), currency: currency)
        } catch {
            return reject("bad Customer Price in '\(currency)': \(error.description)")
        }
        // Proceeds mean nothing without their currency: a report lacking either column has none.
        var proceeds: Money?
        if layout.index[.developerProceeds] != nil, layout.index[.proceedsCurrency] != nil {
            switch developerProceeds(field(.developerProceeds), currency: field(.proceedsCurrency)) {
            case .success(let value): proceeds = value
            case .failure(let reason): return reject(reason.text)
            }
        }
        let parent = field(.parentIdentifier)
        let row = SalesReportRow(
            day: day, productID: sku, productType: type, countryCode: country.uppercased(), storefront: storefront,
            units: units, customerPrice: price, developerProceeds: proceeds,
            parentIdentifier: parent.isEmpty ? nil : parent, line: line)
        guard row.customerAmount != nil else { return reject("Units × Customer Price is out of range") }
        guard proceeds == nil || row.proceedsAmount != nil else {
            return reject("Units × Developer Proceeds is out of range")
        }
        return .sale(row)
    }

    /// Why a row's `Developer Proceeds` cannot be read.
    package struct ProceedsError: Error {
        package var text: String
    }

    /// The `Developer Proceeds` of a row in `Currency of Proceeds`: nil when the cell is empty.
    ///
    /// Proceeds are Apple's computed share of the price, not a price a customer was charged, so
    /// they are read to the three decimals milliunits hold, whatever the currency's minor unit.
    package static func developerProceeds(_ text: String, currency: String) -> Result<Money?, ProceedsError> {
        guard !text.isEmpty else { return .success(nil) }
        guard let info = Currency.lookup(currency) else {
            return .failure(
                ProceedsError(
                    text: currency.isEmpty
                        ? "Developer Proceeds '\(text)' without a Currency of Proceeds"
                        : "unknown Currency of Proceeds '\(currency)'"))
        }
        do {
            return .success(
                Money(milliunits: try Money.parseDecimal(text, maxDecimals: 3, scale: 3), currency: info.code))
        } catch {
            return .failure(ProceedsError(text: "bad Developer Proceeds in '\(info.code)': \(error.description)"))
        }
    }

    /// Days since 1970-01-01 of an `MM/DD/YYYY` date, the only form Apple writes.
    package static func day(_ text: String) -> Int? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 2, parts[1].count == 2, parts[2].count == 4,
            let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]),
            (1...12).contains(month), year >= 1970, (1...Timestamp.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return Timestamp.daysFromCivil(year: year, month: month, day: day)
    }
}
