import Foundation
import ReconFindings
import ReconModel
import ReconStorage

extension XLSXWriter {
    /// The decimals and number formats of each currency a sheet's money cells name, worked out once
    /// per currency rather than once per cell.
    package struct CurrencyFormats {
        package struct Formats {
            /// The currency's own decimals (2 for an unknown currency).
            package let decimals: Int
            /// ``XLSXWriter/moneyFormat(_:)``: with the currency's code.
            package let money: String
            /// ``XLSXWriter/amountFormat(_:)``: without it.
            package let amount: String
        }

        private var known: [String: Formats] = [:]

        package mutating func formats(of currency: String) -> Formats {
            if let formats = known[currency] { return formats }
            let formats = Formats(
                decimals: Currency.lookup(currency)?.decimals ?? 2, money: moneyFormat(currency),
                amount: amountFormat(currency))
            known[currency] = formats
            return formats
        }
    }

    /// The number a money cell holds: `milliunits` rounded to `decimals` as ``Money/format(milliunits:decimals:)``
    /// rounds it, the same `Double` that parsing its text gives.
    ///
    /// Below 2^53 units both the units and the power of ten are exact doubles, and IEEE division rounds their
    /// quotient correctly, as parsing the decimal text does; larger amounts are parsed from the text.
    package static func shownValue(_ milliunits: Int64, decimals: Int) -> Double {
        let units = Money.roundedUnits(milliunits: milliunits, decimals: decimals)
        guard units < 1 << 53 else { return Double(Money.format(milliunits: milliunits, decimals: decimals)) ?? 0 }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let value = Double(units) / scale
        return milliunits < 0 && units != 0 ? -value : value
    }
}
