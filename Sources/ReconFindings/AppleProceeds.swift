import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Apple's own proceeds per unit, as its reports state them, for a sale the ledger recorded.
///
/// Apple takes the taxes it collects out of the customer price first and its commission after, so
/// 4.99 EUR in France pays 2.91 EUR, not 4.99 × 0.70 = 3.49. Where a Financial Report (the partner
/// share of the fiscal month holding the sale) or a Summary Sales Report (the developer proceeds of
/// the sale's day) lists the same product, country, currency and customer price, its figure is the
/// sale's proceeds
/// (https://developer.apple.com/help/app-store-connect/reference/financial-report-fields, `Partner Share`;
/// https://developer.apple.com/help/app-store-connect/reference/summary-sales-report, `Developer Proceeds`).
public struct AppleProceeds: Sendable {
    package struct PriceKey: Hashable {
        package var productID: String
        /// ISO 3166-1 alpha-2.
        package var country: String
        package var currency: String
        /// The customer price per unit, milliunits (always positive).
        package var unitPrice: Int64
    }

    package struct DayKey: Hashable {
        package var day: Int
        package var price: PriceKey
    }

    /// The reports' time zone: decides the day (and so the fiscal month) of a sale.
    package let timeZone: TimeZone
    private var financial: [PriceKey: [(period: FiscalPeriod, share: Money)]] = [:]
    private var sales: [DayKey: Money] = [:]

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// Whether any report stated a figure.
    public var isEmpty: Bool { financial.isEmpty && sales.isEmpty }

    /// Adds the sale rows of Financial Reports (returns carry the same share as their sale).
    public mutating func add(financial rows: [FinancialReportRow]) {
        for row in rows where row.isInAppPurchase && !row.isReturn && row.quantity > 0 {
            let key = PriceKey(
                productID: row.productID, country: row.countryCode, currency: row.customerPrice.currency,
                unitPrice: abs(row.customerPrice.milliunits))
            var periods = financial[key] ?? []
            if !periods.contains(where: { $0.period == row.period }) { periods.append((row.period, row.partnerShare)) }
            financial[key] = periods
        }
    }

    /// Adds the developer proceeds per unit of Summary Sales Reports' in-app sales (refund rows carry the same
    /// proceeds as their sale; Apple writes them positive there too).
    public mutating func add(sales rows: [SalesReportRow]) {
        for row in rows where row.units > 0 {
            guard let proceeds = row.developerProceeds else { continue }
            let key = DayKey(
                day: row.day,
                price: PriceKey(
                    productID: row.productID, country: row.countryCode, currency: row.customerPrice.currency,
                    unitPrice: abs(row.customerPrice.milliunits)))
            if sales[key] == nil {
                sales[key] = Money(milliunits: abs(proceeds.milliunits), currency: proceeds.currency)
            }
        }
    }

    /// Apple's proceeds per unit for a sale of `productID` in `storefront` (alpha-3) at `unitPrice`, made at `millis`.
    ///
    /// Nil when no report covers it. A Financial Report wins over a Sales Report.
    public func perUnit(productID: String, storefront: String?, unitPrice: Money, at millis: Int64)
        -> (proceeds: Money, source: ProceedsSource)?
    {
        guard !isEmpty, let storefront, let country = Territory.alpha2(fromAlpha3: storefront) else { return nil }
        let key = PriceKey(
            productID: productID, country: country, currency: unitPrice.currency, unitPrice: abs(unitPrice.milliunits))
        let day = Timestamp.dayAndSecond(millis, in: timeZone).day
        if let share = financial[key]?.first(where: { $0.period.contains(day) })?.share {
            return (share, .financialReport)
        }
        if let proceeds = sales[DayKey(day: day, price: key)] { return (proceeds, .salesReport) }
        return nil
    }
}
