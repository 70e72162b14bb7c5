/// One of Apple's Financial Report regions: the sales Apple reports and pays in one currency.
///
/// Apple splits its Financial Reports by region, each in its currency (`Euro-Zone (EUR)`,
/// `Americas (USD)`, …), and names the file after the region's code (`85012345_1026_EU.txt`). The
/// simulator places a sale in the region of its customer currency.
public struct AppleRegion: Sendable, Hashable, Comparable {
    /// The code in Apple's file names: `EU`, `US`, `GB`, `JP`.
    public var code: String
    /// The name in the payment summary: `Euro-Zone`, `Americas`.
    public var name: String
    /// The region's currency: the reports' `Partner Share Currency`.
    public var currency: String

    /// The regions of the currencies the simulator's seeds sell in.
    public static let all: [AppleRegion] = [
        AppleRegion(code: "AU", name: "Australia", currency: "AUD"),
        AppleRegion(code: "CA", name: "Canada", currency: "CAD"),
        AppleRegion(code: "CH", name: "Switzerland", currency: "CHF"),
        AppleRegion(code: "EU", name: "Euro-Zone", currency: "EUR"),
        AppleRegion(code: "GB", name: "United Kingdom", currency: "GBP"),
        AppleRegion(code: "JP", name: "Japan", currency: "JPY"),
        AppleRegion(code: "US", name: "Americas", currency: "USD"),
    ]

    /// The region Apple reports sales in `currency` in, if the table has it.
    public static func of(currency: String) -> AppleRegion? {
        all.first { $0.currency == currency.uppercased() }
    }

    /// `Euro-Zone (EUR)`, as the payment summary labels the region.
    public var label: String { "\(name) (\(currency))" }

    public static func < (a: AppleRegion, b: AppleRegion) -> Bool { a.code < b.code }
}
