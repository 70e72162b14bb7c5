import Foundation
import IAPRecon

/// One region's Financial Report Apple would publish for the simulator's own dataset and one fiscal
/// month: correct by construction, so whatever the month close finds against it is the ledger's doing.
///
/// Layout (tab-separated, as App Store Connect's "Payments and Financial Reports" delivers it):
/// https://developer.apple.com/help/app-store-connect/reference/financial-report-fields
/// Apple's 22 columns, one row per product, country, customer price and sale (`S`) or return (`R`),
/// then `Total_Rows`, `Total_Amount` (the sum of `Extended Partner Share`) and `Total_Units` (units
/// sold: returns are not subtracted, as in Apple's own reports).
///
/// Only Production sales of the seed's bundle id (and the `extra` transactions) count, never a
/// family member's access; a sale counts in the fiscal month holding its purchase day, a refund
/// (revocation) in the month holding the refund day, days in the given time zone (Apple's Pacific
/// time): a report tells nothing that happened outside its period. A return is a negative quantity
/// at a negative customer price (the refunded price per unit), a positive partner share and a
/// negative extended share. A refund Apple reversed is no return.
public struct SimulatedFinancialReport: Sendable, Hashable {
    /// One row: units of one product sold (or returned) in one storefront at one price.
    public struct Row: Sendable, Hashable, Comparable {
        /// `Vendor Identifier`: the product id.
        public var productID: String
        /// `Product Type Identifier` (`IA1`, `IA9`, `IAY`, `IAC`).
        public var productType: String
        /// The storefront (ISO 3166-1 alpha-3); `Country Of Sale` is its alpha-2 code.
        public var storefront: String
        /// `Customer Currency`, also the region's `Partner Share Currency`.
        public var currency: String
        /// `Customer Price` per unit, milliunits: negative on a return.
        public var customerPrice: Int64
        /// `Quantity`: negative on a return.
        public var quantity: Int64
        /// `Partner Share` per unit, milliunits: always positive.
        public var partnerShare: Int64

        /// A return (`R`) rather than a sale (`S`).
        public var isReturn: Bool { quantity < 0 }
        /// `Extended Partner Share`: quantity × partner share, signed.
        public var extendedPartnerShare: Int64 { quantity * partnerShare }

        public static func < (a: Row, b: Row) -> Bool {
            (a.productID, a.storefront, a.isReturn ? 1 : 0, a.customerPrice)
                < (b.productID, b.storefront, b.isReturn ? 1 : 0, b.customerPrice)
        }
    }

    /// Apple's column names, in Apple's order.
    public static let header = [
        "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
        "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
        "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
        "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
        "Customer Price", "Customer Currency",
    ]

    /// The fiscal month the report covers.
    public var period: FiscalPeriod
    public var region: AppleRegion
    /// The rows, in a stable order.
    public var rows: [Row]

    /// What Apple owes for the region: the sum of `Extended Partner Share` (`Total_Amount`), milliunits.
    public var earned: Int64 { rows.reduce(0) { $0 + $1.extendedPartnerShare } }
    /// Units sold, returns not subtracted (`Total_Units`).
    public var unitsSold: Int64 { rows.reduce(0) { $0 + max($1.quantity, 0) } }
    /// Units sold less units returned (the payment summary's `Units Sold`).
    public var netUnits: Int64 { rows.reduce(0) { $0 + $1.quantity } }

    /// Apple's file name: `<vendor>_<MMYY>_<region>.txt`, the fiscal month as its month and year.
    public func fileName(vendorNumber: String = "85012345") -> String {
        let month = period.month
        let mmyy = (month.month < 10 ? "0" : "") + "\(month.month)" + String(String(month.year).suffix(2))
        return "\(vendorNumber)_\(mmyy)_\(region.code).txt"
    }

    /// The report as Apple writes it.
    public var text: String {
        let dates = [SimulatedSalesReport.appleDate(period.start), SimulatedSalesReport.appleDate(period.end)]
        var lines = [Self.header.joined(separator: "\t")]
        for row in rows {
            let country = Territory.alpha2(fromAlpha3: row.storefront) ?? row.storefront
            lines.append(
                (dates + [
                    "", "", row.productID, String(row.quantity), Self.amount(row.partnerShare, row.currency),
                    Self.amount(row.extendedPartnerShare, row.currency), region.currency, row.isReturn ? "R" : "S",
                    Self.appleIdentifier(row.productID), "Example Developer", row.productID, "", "", row.productType,
                    "", country, "", "", Self.amount(row.customerPrice, row.currency), row.currency,
                ]).joined(separator: "\t"))
        }
        lines.append("Total_Rows\t\(rows.count)")
        lines.append("Total_Amount\t\(Money(milliunits: earned, currency: region.currency).formatted)")
        lines.append("Total_Units\t\(unitsSold)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A row's amount as Apple writes it: two decimals at least (Apple prints `119.00` JPY).
    static func amount(_ milliunits: Int64, _ currency: String) -> String {
        Money.format(milliunits: milliunits, decimals: max(2, Currency.lookup(currency)?.decimals ?? 2))
    }

    /// A stable `Apple Identifier` for an in-app purchase: ten digits from the product id (FNV-1a).
    static func appleIdentifier(_ productID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in productID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(6_000_000_000 + hash % 1_000_000_000)
    }

    private struct Key: Hashable {
        var productID: String
        var productType: String
        var storefront: String
        var currency: String
        var customerPrice: Int64
    }

    /// The reports of `seed` for `period`, one per region with a sale or return, by region code.
    ///
    /// - Parameters:
    ///   - timeZone: the zone of the reports' days (Apple's: `America/Los_Angeles`).
    ///   - extra: transactions Apple sold beyond the seed's bundle (the developer's other apps:
    ///     Apple's reports cover the whole account), included whatever their bundle id.
    ///   - reducedCommission: products Apple takes 15 % of (``PartnerShare``).
    /// - Throws: ``SimulatorError/invalidSeed(_:)`` for a sale in a storefront without a tax rate or
    ///   a currency without a region.
    public static func reports(
        for seed: SimulatorSeed, period: FiscalPeriod, timeZone: TimeZone, extra: [SimulatorTransaction] = [],
        reducedCommission: Set<String> = []
    ) throws(SimulatorError) -> [SimulatedFinancialReport] {
        var units: [Key: Int64] = [:]
        let sold = seed.transactions.filter { $0.bundleId == nil || $0.bundleId == seed.bundleId } + extra
        // A family member's access is not a sale (inAppOwnershipType FAMILY_SHARED).
        for t in sold where t.environment == "Production" && t.inAppOwnershipType != "FAMILY_SHARED" {
            guard let currency = t.currency, let storefront = t.storefront?.uppercased(),
                Territory.alpha2(fromAlpha3: storefront) != nil
            else { continue }
            let quantity = Int64(t.quantity ?? 1)
            // Apple's `price` is the total for the quantity purchased; the report's price is per unit.
            let unit = (t.price ?? 0) / max(quantity, 1)
            let type = SimulatedSalesReport.productTypeIdentifier(t.type)
            func key(_ price: Int64) -> Key {
                Key(
                    productID: t.productId, productType: type, storefront: storefront, currency: currency,
                    customerPrice: price)
            }
            if period.contains(Timestamp.dayAndSecond(t.purchaseDate, in: timeZone).day) {
                units[key(unit), default: 0] += quantity
            }
            if let refunded = t.revocationDate, t.revocationType != "FAMILY_REVOKE", t.refundReversedDate == nil,
                period.contains(Timestamp.dayAndSecond(refunded, in: timeZone).day)
            {
                var back = unit
                if t.revocationType == "REFUND_PRORATED", let share = t.revocationPercentage {
                    back = Money(milliunits: unit, currency: currency).scaled(byPPM: Int64(share) * 10).milliunits
                }
                units[key(-back), default: 0] -= quantity
            }
        }
        var byRegion: [AppleRegion: [Row]] = [:]
        for (key, quantity) in units where quantity != 0 {
            guard let region = AppleRegion.of(currency: key.currency) else {
                throw .invalidSeed("no Financial Report region for currency \(key.currency)")
            }
            let share = try PartnerShare.perUnit(
                price: key.customerPrice, currency: key.currency, storefront: key.storefront,
                reducedCommission: reducedCommission.contains(key.productID))
            byRegion[region, default: []].append(
                Row(
                    productID: key.productID, productType: key.productType, storefront: key.storefront,
                    currency: key.currency, customerPrice: key.customerPrice, quantity: quantity,
                    partnerShare: share))
        }
        return byRegion.keys.sorted().map { region in
            SimulatedFinancialReport(period: period, region: region, rows: (byRegion[region] ?? []).sorted())
        }
    }
}
