import CZlib
import Foundation
import IAPRecon

/// The daily Summary Sales Report Apple would deliver for the simulator's own dataset: correct
/// by construction, so whatever the reconciliation finds against it is the ledger's doing.
///
/// Format (version 1_0, tab-separated, gzip as App Store Connect delivers it):
/// https://developer.apple.com/help/app-store-connect/reference/summary-sales-report
/// Only Production transactions of the seed's bundle id are sales; a purchase counts on the
/// calendar day of its purchase, a refund (revocation) as negative units on the day of the
/// refund, at the refunded price per unit, and a refund Apple reversed as positive units again on
/// the day of the reversal. A partial refund (`REFUND_PRORATED` below 100 %) returns no unit: a row of
/// 0 units whose Customer Price is the refunded amount, negative. Developer Proceeds are 70 % of the
/// price, positive on refund rows too (the sign is in Units, or in the Customer Price of a 0-unit row). Each day also has a row of app downloads (product type `1`), which the
/// reconciliation skips.
public enum SimulatedSalesReport {
    /// Apple's columns, in Apple's order.
    public static let header = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
        "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
        "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period", "Category",
        "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type",
    ]

    /// Apple's Product Type Identifier of an in-app purchase type.
    static func productTypeIdentifier(_ type: String) -> String {
        switch type.lowercased() {
        case "non-consumable": return "IA9"
        case "auto-renewable subscription", "auto-renewable": return "IAY"
        case "non-renewing subscription", "non-renewing": return "IAC"
        default: return "IA1"
        }
    }

    private struct Key: Hashable, Comparable {
        var sku: String
        var type: String
        var country: String
        var currency: String
        var price: Int64

        static func < (a: Key, b: Key) -> Bool {
            (a.sku, a.country, a.currency, a.price) < (b.sku, b.country, b.currency, b.price)
        }
    }

    /// The report of `seed` for `day` (days since 1970-01-01) in `timeZone`.
    ///
    /// - Parameter extra: transactions Apple sold beyond the seed's, included the same way.
    public static func summary(
        for seed: SimulatorSeed, day: Int, timeZone: TimeZone, extra: [SimulatorTransaction] = []
    ) -> String {
        var units: [Key: Int64] = [:]
        // Partial refunds (and their reversals): 0 units, the amount summed per key (its price field unused).
        var partial: [Key: Int64] = [:]
        for t in seed.transactions + extra
        where t.environment == "Production" && (t.bundleId == nil || t.bundleId == seed.bundleId)
            // A family member's access is not a sale (inAppOwnershipType FAMILY_SHARED).
            && t.inAppOwnershipType != "FAMILY_SHARED"
        {
            guard let currency = t.currency, let storefront = t.storefront,
                let country = Territory.alpha2(fromAlpha3: storefront)
            else { continue }
            let quantity = Int64(t.quantity ?? 1)
            // Apple's `price` is "the total amount of the transaction for the quantity the customer
            // purchased"; the sales report's Customer Price is per unit.
            let unit = (t.price ?? 0) / max(quantity, 1)
            let type = productTypeIdentifier(t.type)
            if Timestamp.dayAndSecond(t.purchaseDate, in: timeZone).day == day {
                let key = Key(sku: t.productId, type: type, country: country, currency: currency, price: unit)
                units[key, default: 0] += quantity
            }
            // A partial refund (a prorated share below 100 %) takes no unit back: 0 units, the refunded amount
            // (the share of the transaction's price, rounded to the currency's smallest unit).
            var partialAmount: Int64?
            if t.revocationType == "REFUND_PRORATED", let share = t.revocationPercentage, share < 100_000 {
                partialAmount =
                    Money(milliunits: t.price ?? 0, currency: currency).scaled(byPPM: Int64(share) * 10)
                    .roundedToMinorUnit.milliunits
            }
            let partialKey = Key(sku: t.productId, type: type, country: country, currency: currency, price: 0)
            if let refunded = t.revocationDate, t.revocationType != "FAMILY_REVOKE",
                Timestamp.dayAndSecond(refunded, in: timeZone).day == day
            {
                if let partialAmount {
                    partial[partialKey, default: 0] -= partialAmount
                } else {
                    let key = Key(sku: t.productId, type: type, country: country, currency: currency, price: -unit)
                    units[key, default: 0] -= quantity
                }
            }
            // A refund Apple reversed stays on the refund day; the reversal is booked on its own day.
            if let refunded = t.revocationDate, let reversed = t.refundReversedDate, reversed >= refunded,
                t.revocationType != "FAMILY_REVOKE", Timestamp.dayAndSecond(reversed, in: timeZone).day == day
            {
                if let partialAmount {
                    partial[partialKey, default: 0] += partialAmount
                } else {
                    let key = Key(sku: t.productId, type: type, country: country, currency: currency, price: unit)
                    units[key, default: 0] += quantity
                }
            }
        }
        let date = appleDate(day)
        var lines = [header.joined(separator: "\t")]
        func line(sku: String, type: String, units: Int64, country: String, currency: String, price: Int64) -> String {
            let customer = Money(milliunits: price, currency: currency)
            // Apple writes Developer Proceeds positive on refund rows too: the sign is in Units.
            let proceeds = Money(milliunits: abs(price), currency: currency).scaled(byPPM: 700_000)
            let subscription = type == "IAY" ? (units <= 0 ? "" : "Renewal") : ""
            return [
                "APPLE", "US", sku, "Example Developer", sku, "1.0", type, String(units), proceeds.formatted, date,
                date, currency, country, currency, seed.appAppleId.map(String.init) ?? "1234567890",
                customer.formatted, "", type == "1" ? "" : "demo_app",
                subscription, type == "IAY" ? "1 Month" : "", "Games", "", "iPhone", "iOS", "", "", "", "",
            ].joined(separator: "\t")
        }
        lines.append(
            line(sku: "demo_app", type: "1", units: 40 + Int64(day % 17), country: "US", currency: "USD", price: 0))
        for key in units.keys.sorted() {
            let count = units[key] ?? 0
            guard count != 0 else { continue }
            lines.append(
                line(
                    sku: key.sku, type: key.type, units: count, country: key.country, currency: key.currency,
                    price: key.price))
        }
        for key in partial.keys.sorted() {
            let amount = partial[key] ?? 0
            guard amount != 0 else { continue }
            lines.append(
                line(
                    sku: key.sku, type: key.type, units: 0, country: key.country, currency: key.currency, price: amount)
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `MM/DD/YYYY`, as Apple writes dates in these reports.
    static func appleDate(_ day: Int) -> String {
        let parts = Timestamp.dayString(day).split(separator: "-")
        return "\(parts[1])/\(parts[2])/\(parts[0])"
    }

    /// Apple's file name for a daily summary report: `S_D_<vendor>_<yyyyMMdd>.txt.gz`.
    public static func fileName(day: Int, vendorNumber: String = "85012345") -> String {
        "S_D_\(vendorNumber)_\(Timestamp.dayString(day).replacingOccurrences(of: "-", with: "")).txt.gz"
    }

    /// Writes `text` gzip-compressed to `path`, as App Store Connect delivers reports.
    public static func writeGzip(_ text: String, to path: String) throws {
        guard let file = gzopen(path, "wb9") else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { raw in gzwrite(file, raw.baseAddress, UInt32(raw.count)) }
        let closed = gzclose_w(file)
        guard written == Int32(bytes.count), closed == Z_OK else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
