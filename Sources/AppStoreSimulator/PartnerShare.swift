import IAPRecon

/// What Apple pays the developer for one unit sold: its `Partner Share` in a Financial Report.
///
/// Apple first takes out the tax included in the customer price (VAT, GST, Japan's consumption
/// tax), which it collects and remits, then keeps its commission on what is left: partner share =
/// customer price ÷ (1 + tax rate) × 0.70, or × 0.85 when Apple takes 15 % (the App Store Small
/// Business Program, https://developer.apple.com/app-store/small-business-program/, or a
/// subscription past its subscriber's first year), rounded half up to the currency's minor unit.
/// So 4.99 EUR pays 2.91 EUR in France (20 %) and 2.94 EUR in Germany (19 %), 0.79 GBP pays 0.46 GBP
/// in the United Kingdom, 0.99 USD pays 0.69 USD in the United States. Exact: integers only.
public enum PartnerShare {
    /// The standard tax rate included in App Store prices, in basis points (1900 = 19 %), per
    /// storefront (ISO 3166-1 alpha-3) the simulator's seeds sell in.
    ///
    /// Sources: EU member states, the European Commission's "VAT rates applied in the Member
    /// States" (https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en):
    /// Germany 19 %, France 20 %, Spain 21 %, Italy 22 %, the Netherlands 21 %; the United Kingdom,
    /// HM Revenue & Customs (https://www.gov.uk/vat-rates): 20 %; Japan, the National Tax Agency
    /// (https://www.nta.go.jp/english/): consumption tax 10 % since 1 October 2019, included in
    /// prices; the United States: none, as US App Store prices exclude sales tax, which is added at
    /// checkout.
    public static let taxBasisPoints: [String: Int64] = [
        "USA": 0, "DEU": 1_900, "FRA": 2_000, "ESP": 2_100, "ITA": 2_200, "NLD": 2_100, "GBR": 2_000,
        "JPN": 1_000,
    ]

    /// The share Apple keeps for the developer, in basis points: 70 %.
    public static let standardBasisPoints: Int64 = 7_000
    /// The share when Apple takes 15 %: 85 %.
    public static let reducedCommissionBasisPoints: Int64 = 8_500

    /// The partner share of one unit sold at `price` (milliunits of `currency`, the customer price
    /// per unit; a return's negative price pays the same positive share) in `storefront`.
    ///
    /// - Parameter reducedCommission: Apple takes 15 % instead of 30 %.
    /// - Throws: ``SimulatorError/invalidSeed(_:)`` for a storefront without a tax rate in
    ///   ``taxBasisPoints`` or a currency ISO 4217 does not know: the simulator never guesses a share.
    public static func perUnit(price: Int64, currency: String, storefront: String, reducedCommission: Bool = false)
        throws(SimulatorError) -> Int64
    {
        guard let tax = taxBasisPoints[storefront.uppercased()] else {
            throw .invalidSeed("no tax rate for storefront \(storefront) (add it to PartnerShare.taxBasisPoints)")
        }
        guard let decimals = Currency.lookup(currency)?.decimals else {
            throw .invalidSeed("unknown currency \(currency)")
        }
        var minorUnit: Int128 = 1
        for _ in 0..<(3 - decimals) { minorUnit *= 10 }
        let keep = reducedCommission ? reducedCommissionBasisPoints : standardBasisPoints
        // price × keep / (10 000 + tax) milliunits, in minor units, rounded half up.
        let numerator = Int128(price.magnitude) * Int128(keep)
        let denominator = Int128(10_000 + tax) * minorUnit
        let minor = (2 * numerator + denominator) / (2 * denominator)
        return Int64(clamping: minor * minorUnit)
    }
}
