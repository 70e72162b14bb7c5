/// ISO 4217 currencies and their minor units.
///
/// The table is the active ISO 4217 list (2024). Funds codes with four decimals (`CLF`, `UYW`)
/// are left out: milliunits cannot hold them and the App Store never charges in them.
public struct Currency: Sendable, Hashable {
    /// The alphabetic code (`USD`).
    public let code: String
    /// Digits after the decimal separator (`USD` 2, `JPY` 0, `KWD` 3).
    public let decimals: Int

    /// The currency for `code` (case-insensitive), or nil when it is not an ISO 4217 code.
    public static func lookup(_ code: String) -> Currency? {
        // Every amount of every report row asks: three capital letters are an index into a table, not a hash.
        if let index = index(of: code) {
            let decimals = Int(decimalsByIndex[index])
            return decimals < 0 ? nil : Currency(code: code, decimals: decimals)
        }
        let upper = code.trimmingCharacters(in: .whitespaces).uppercased()
        if let decimals = exceptions[upper] { return Currency(code: upper, decimals: decimals) }
        if twoDecimal.contains(upper) { return Currency(code: upper, decimals: 2) }
        return nil
    }

    /// The index of a code of three capital letters (`AAA` 0, `ZZZ` 17575); nil for any other text.
    private static func index(of code: String) -> Int? {
        var bytes = code.utf8.makeIterator()
        guard let a = bytes.next(), let b = bytes.next(), let c = bytes.next(), bytes.next() == nil else { return nil }
        guard (0x41...0x5A).contains(a), (0x41...0x5A).contains(b), (0x41...0x5A).contains(c) else { return nil }
        return (Int(a) - 0x41) * 676 + (Int(b) - 0x41) * 26 + (Int(c) - 0x41)
    }

    /// The decimals of every code of three capital letters (−1: not a currency), from the two lists below.
    private static let decimalsByIndex: [Int8] = {
        var table = [Int8](repeating: -1, count: 26 * 26 * 26)
        for code in twoDecimal { if let index = index(of: code) { table[index] = 2 } }
        for (code, decimals) in exceptions { if let index = index(of: code) { table[index] = Int8(decimals) } }
        return table
    }()

    private static let exceptions: [String: Int] = [
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
        "PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0,
        "XPF": 0,
    ]

    private static let twoDecimal: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD",
        "BDT", "BGN", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
        "CAD", "CDF", "CHE", "CHF", "CHW", "CNY", "COP", "COU", "CRC", "CUC", "CUP", "CVE",
        "CZK", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL",
        "GHS", "GIP", "GMD", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR",
        "IRR", "JMD", "KES", "KGS", "KHR", "KPW", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD",
        "LSL", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK",
        "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN",
        "PGK", "PHP", "PKR", "PLN", "QAR", "RON", "RSD", "RUB", "SAR", "SBD", "SCR", "SDG",
        "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL",
        "THB", "TJS", "TMT", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "USD", "USN", "UYU",
        "UZS", "VED", "VES", "WST", "XCD", "XCG", "YER", "ZAR", "ZMW", "ZWG", "ZWL",
    ]
}
