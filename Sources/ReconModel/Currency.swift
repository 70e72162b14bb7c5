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
        let isUpper = code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
        let upper = isUpper ? code : code.trimmingCharacters(in: .whitespaces).uppercased()
        if let decimals = exceptions[upper] { return Currency(code: upper, decimals: decimals) }
        if twoDecimal.contains(upper) { return Currency(code: upper, decimals: 2) }
        return nil
    }

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
