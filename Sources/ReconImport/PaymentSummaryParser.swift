import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Reads Apple's payment summary (CONTRACT §1.9): a title line naming the fiscal month, a header
/// `Region (Currency), Units Sold, Earned, Pre-Tax Subtotal, Input Tax, Adjustments, Withholding Tax,
/// Total Owed, Exchange Rate, Proceeds, Bank Account Currency` (read by name), one row per region,
/// and a footer with the total paid in the bank's currency.
///
/// Like a Financial Report it is a statement, taken whole or not at all: a malformed row, a missing
/// title or footer, or regions that do not add up to the footer refuse the file in one line naming
/// it. Amounts are exact decimals (grouping commas and a parenthesised negative are read as Apple
/// writes them); the exchange rate keeps every digit.
package enum PaymentSummaryParser {
    package enum Column: String, CaseIterable {
        case region = "Region (Currency)"
        case unitsSold = "Units Sold"
        case earned = "Earned"
        case preTaxSubtotal = "Pre-Tax Subtotal"
        case inputTax = "Input Tax"
        case adjustments = "Adjustments"
        case withholdingTax = "Withholding Tax"
        case totalOwed = "Total Owed"
        case exchangeRate = "Exchange Rate"
        case proceeds = "Proceeds"
        case bankCurrency = "Bank Account Currency"
    }

    package static func refused(_ path: String, _ reason: String) -> ImportFileError {
        .readFailed(path: path, reason: "\(reason); nothing of this payment summary is stored")
    }

    /// Reads the whole summary at `path`.
    ///
    /// - Throws: ``ImportFileError`` when the file cannot be read or is not a payment summary that
    ///   adds up.
    package static func parse(_ path: String) throws -> PaymentSummary {
        var reader = try CSVReader(path: path)
        var title: [String] = []
        var layout: [Column: Int]?
        var regions: [PaymentRegion] = []
        var footer: (amount: Int64, currency: String?, line: Int)?
        var bankCurrency: String?
        var paidBeforeFooter: Int64 = 0
        try reader.forEach { record in
            let fields = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.contains(where: { !$0.isEmpty }) else { return }
            if let found = Self.layout(fields) {
                // The header; a block of regions not paid yet may repeat it after a blank line.
                layout = found
                return
            }
            guard let columns = layout else {
                title += fields
                return
            }
            func field(_ column: Column) -> String {
                columns[column].flatMap { $0 < fields.count ? fields[$0] : nil } ?? ""
            }
            if record.syntaxError == nil, let (name, currency) = regionLabel(field(.region)) {
                let region = try self.region(
                    name: name, currency: currency, field: field, line: record.line, path: path)
                if let bank = bankCurrency, bank != region.proceeds.currency, region.proceeds.milliunits != 0 {
                    throw refused(
                        path, "line \(record.line): Bank Account Currency \(region.proceeds.currency) ≠ \(bank)")
                }
                if region.proceeds.milliunits != 0 || bankCurrency == nil { bankCurrency = region.proceeds.currency }
                regions.append(region)
                if footer == nil { paidBeforeFooter = Money.sum(paidBeforeFooter, region.proceeds.milliunits) }
            } else if footer == nil, let total = footerTotal(record.raw) {
                // The footer: the total paid, Apple writes it `"234.58" EUR` under Proceeds.
                footer = (total.0, total.1, record.line)
            }
            // Anything else after the header (`Paid to BANK -****1299`) is words for people.
        }
        guard layout != nil else {
            throw refused(path, "not an Apple payment summary (no header naming 'Region (Currency)')")
        }
        guard let month = fiscalMonth(title.joined(separator: " ")) else {
            throw refused(path, "the title does not name a fiscal month (expected e.g. 'September 2014')")
        }
        guard !regions.isEmpty else { throw refused(path, "no region rows") }
        guard let footer else { throw refused(path, "no footer with the total paid (a truncated download)") }
        let currency = bankCurrency ?? footer.currency ?? ""
        let total = Money(milliunits: footer.amount, currency: currency)
        if let stated = footer.currency, stated != currency {
            throw refused(path, "line \(footer.line): the total is paid in \(stated), the regions in \(currency)")
        }
        guard paidBeforeFooter == footer.amount else {
            throw refused(
                path,
                "the footer on line \(footer.line) states \(total.formatted) \(currency) paid, the regions' Proceeds "
                    + "add up to \(Money(milliunits: paidBeforeFooter, currency: currency).formatted)")
        }
        return PaymentSummary(month: month, regions: regions, totalPaid: total)
    }

    /// The total paid of a footer line: the one amount on it, and the currency code written beside
    /// it (`,,,,,,,,,,"234.58" EUR,,`); nil when the line holds no amount.
    package static func footerTotal(_ raw: String) -> (Int64, String?)? {
        let cells = raw.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.replacingOccurrences(of: "\"", with: " ").trimmingCharacters(in: .whitespaces)
        }
        var found: (Int64, String?)?
        for cell in cells where !cell.isEmpty {
            let words = cell.split(separator: " ").map(String.init)
            guard let number = words.first.flatMap(amount) else { continue }
            guard found == nil else { return nil }
            let code = words.dropFirst().first { Currency.lookup($0.uppercased()) != nil }?.uppercased()
            found = (number, code)
        }
        return found
    }

    /// The header's column positions, when `fields` is the header.
    package static func layout(_ fields: [String]) -> [Column: Int]? {
        var index: [Column: Int] = [:]
        for (position, name) in fields.enumerated() {
            // Newer summaries name the first column `Country or Region (Currency)`.
            let name = name == "Country or Region (Currency)" ? Column.region.rawValue : name
            if let column = Column(rawValue: name), index[column] == nil { index[column] = position }
        }
        return Column.allCases.allSatisfy({ index[$0] != nil }) ? index : nil
    }

    /// `Euro-Zone (EUR)` → (`Euro-Zone`, `EUR`).
    package static func regionLabel(_ text: String) -> (String, String)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let code = text[text.index(after: open)..<text.index(before: text.endIndex)]
            .trimmingCharacters(in: .whitespaces).uppercased()
        guard code.count == 3, Currency.lookup(code) != nil else { return nil }
        let name = text[..<open].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : (name, code)
    }

    /// The fiscal month a title names: a month's English name and a four-digit year
    /// (`Payments and Financial Reports (September, 2014)`).
    package static func fiscalMonth(_ title: String) -> FiscalMonth? {
        let words = title.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        for (i, word) in words.enumerated() {
            guard let month = FiscalMonth.monthNames.firstIndex(where: { $0.lowercased() == word.lowercased() }),
                let year = words.dropFirst(i + 1).first.flatMap({ Int($0) }), (2008...2100).contains(year)
            else { continue }
            return FiscalMonth(year: year, month: month + 1)
        }
        return nil
    }

    /// An amount as Apple writes it, in milliunits: `1,234.56`, `-12.34`, `(12.34)`; nil when it is not one.
    package static func amount(_ text: String) -> Int64? {
        var text = text.replacingOccurrences(of: ",", with: "")
        var negative = false
        if text.hasPrefix("("), text.hasSuffix(")") {
            negative = true
            text = String(text.dropFirst().dropLast())
        }
        guard let value = try? Money.parseDecimal(text, maxDecimals: 3, scale: 3) else { return nil }
        return negative ? -value : value
    }

    private static func region(
        name: String, currency: String, field: (Column) -> String, line: Int, path: String
    ) throws(ImportFileError) -> PaymentRegion {
        func money(_ column: Column, in code: String) throws(ImportFileError) -> Money {
            let text = field(column)
            if text.isEmpty { return Money(milliunits: 0, currency: code) }
            guard let value = amount(text) else {
                throw refused(path, "line \(line): bad \(column.rawValue) '\(text)' for \(name) (\(currency))")
            }
            return Money(milliunits: value, currency: code)
        }
        let bank = field(.bankCurrency).uppercased()
        guard let bankInfo = Currency.lookup(bank) else {
            throw refused(path, "line \(line): unknown Bank Account Currency '\(field(.bankCurrency))'")
        }
        let unitsText = field(.unitsSold).replacingOccurrences(of: ",", with: "")
        guard let units = unitsText.isEmpty ? 0 : Int64(unitsText) else {
            throw refused(path, "line \(line): bad Units Sold '\(field(.unitsSold))'")
        }
        let rate = field(.exchangeRate)
        guard rate.isEmpty || isDecimal(rate) else {
            throw refused(path, "line \(line): bad Exchange Rate '\(rate)'")
        }
        return PaymentRegion(
            region: name, currency: currency, unitsSold: units, earned: try money(.earned, in: currency),
            preTaxSubtotal: try money(.preTaxSubtotal, in: currency), inputTax: try money(.inputTax, in: currency),
            adjustments: try money(.adjustments, in: currency),
            withholdingTax: try money(.withholdingTax, in: currency),
            totalOwed: try money(.totalOwed, in: currency), exchangeRate: rate,
            proceeds: try money(.proceeds, in: bankInfo.code), line: line)
    }

    /// A plain positive decimal of any precision (`0.884320000`).
    package static func isDecimal(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
