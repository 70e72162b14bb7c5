import AppleData
import ReconModel
import ReconStorage

/// A Financial Report's trailer: `Total_Rows`, `Total_Amount` and `Total_Units`, each on a line of
/// its own after the rows they total.
///
/// Apple writes the trailer so that a reader can tell a whole file from a truncated one: the rows
/// since the previous trailer must count `Total_Rows`, their `Extended Partner Share` must add up
/// to `Total_Amount`, and their quantities to `Total_Units`. Apple's `Total_Units` counts units
/// sold: in Apple's own report (`45545510_0914_EU.txt`: quantities −1, 2, 1, 2, 14, 1 and
/// `Total_Units 20`) the returned unit is not subtracted. The signed sum is accepted too, so a
/// report whose units Apple nets is not refused; rows and amount decide a truncation either way.
extension FinancialReportParser {
    package struct Trailer {
        /// Where the trailer starts (its first line).
        package var line: Int
        package var rows: Int?
        package var amount: Int64?
        package var units: Int64?

        package enum Item: String {
            case rows = "Total_Rows"
            case amount = "Total_Amount"
            case units = "Total_Units"
        }

        /// What the rows of one section add up to.
        package struct Sums {
            package var rows = 0
            /// `Extended Partner Share`, milliunits (summed as numbers, as Apple's trailer does).
            package var amount: Int64 = 0
            package var signedUnits: Int64 = 0
            package var unitsSold: Int64 = 0

            package mutating func add(_ row: FinancialReportRow) {
                rows += 1
                amount = Money.sum(amount, row.extendedPartnerShare.milliunits)
                signedUnits = Money.sum(signedUnits, row.quantity)
                if row.quantity > 0 { unitsSold = Money.sum(unitsSold, row.quantity) }
            }
        }

        /// The trailer item a line holds, if it is one.
        package static func item(_ text: String) -> Item? {
            let name = text.prefix { $0 != "\t" && $0 != "," && $0 != " " }
            return Item(rawValue: String(name))
        }

        /// Reads the value of one trailer line.
        package mutating func set(_ item: Item, text: String, line: Int, path: String) throws(ImportFileError) {
            let value = text.dropFirst(item.rawValue.count).trimmingCharacters(in: .whitespaces.union(["\t", ","]))
            func bad() -> ImportFileError {
                FinancialReportParser.refused(path, "line \(line): bad \(item.rawValue) '\(value)'")
            }
            switch item {
            case .rows:
                guard rows == nil, let n = Int(value), n >= 0 else { throw bad() }
                rows = n
            case .amount:
                guard amount == nil else { throw bad() }
                do { amount = try Money.parseDecimal(value, maxDecimals: 3, scale: 3) } catch { throw bad() }
            case .units:
                guard units == nil, let n = Int64(value) else { throw bad() }
                units = n
            }
        }

        /// Refuses the report when `sums` is not what the trailer states.
        ///
        /// `Total_Rows` must be there; `Total_Amount` is left out of an all-regions file, whose rows are in several
        /// currencies.
        package func check(_ sums: Sums, path: String) throws(ImportFileError) {
            guard rows != nil else {
                throw FinancialReportParser.refused(path, "the trailer on line \(line) has no Total_Rows")
            }
            func differs(_ what: String, _ stated: String, _ found: String) -> ImportFileError {
                FinancialReportParser.refused(
                    path,
                    "the trailer on line \(line) states \(what) \(stated), the rows add up to \(found) "
                        + "(a truncated or altered download)")
            }
            if let rows, rows != sums.rows { throw differs("Total_Rows", String(rows), String(sums.rows)) }
            if let amount, amount != sums.amount {
                throw differs(
                    "Total_Amount", Money.format(milliunits: amount, decimals: 2),
                    Money.format(milliunits: sums.amount, decimals: 2))
            }
            if let units, units != sums.unitsSold, units != sums.signedUnits {
                throw differs("Total_Units", String(units), String(sums.unitsSold))
            }
        }
    }
}
