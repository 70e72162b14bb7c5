import AppleData
import ReconModel
import ReconStorage

/// What a counted sale pays the developer, for the revenue lines and the month close: Apple's own
/// figure where its reports state one, else the catalog's, else an estimate at the proceeds rate
/// (CONTRACT §5 `proceeds`, `proceeds_source`).
public struct ProceedsPricer: Sendable {
    package let context: DetectionContext
    /// Apple's proceeds per unit from the Financial and Sales Reports in the store.
    package let appleProceeds: AppleProceeds?

    public init(context: DetectionContext, appleProceeds: AppleProceeds?) {
        self.context = context
        self.appleProceeds = appleProceeds
    }

    /// The proceeds rate of `record`'s product and storefront (parts per million), for an estimate.
    package func rate(of record: LedgerTransaction) -> Int64 {
        context.product(record.productID, storefront: record.storefront)?.proceedsRatePPM
            ?? CatalogProduct.defaultProceedsRatePPM
    }

    /// The storefront of a sale: the ledger's, else the one Apple's evidence states.
    package static func storefront(_ facts: TransactionFacts, _ record: LedgerTransaction) -> String? {
        record.storefront ?? TransactionFacts.preferred(facts.usable) { $0.entry.storefront }.first
    }

    /// The proceeds of the counted `record` worth `value`: Apple's per unit (a Financial or Sales Report
    /// covering the sale), else the catalog's per-storefront `proceeds` in the sale's currency, times the
    /// quantity; nil when neither states them (the caller estimates them from the rate).
    package func stated(_ facts: TransactionFacts, _ record: LedgerTransaction, value: Money)
        -> (amount: Money, source: ProceedsSource)?
    {
        let quantity = Int64(record.quantity)
        guard quantity > 0, value.milliunits % quantity == 0 else { return nil }
        let unitPrice = Money(milliunits: value.milliunits / quantity, currency: value.currency)
        let storefront = Self.storefront(facts, record)
        var perUnit: (Money, ProceedsSource)?
        if let apple = appleProceeds?.perUnit(
            productID: record.productID, storefront: storefront, unitPrice: unitPrice, at: record.purchaseDate)
        {
            perUnit = (apple.proceeds, apple.source)
        } else if let catalog = context.product(record.productID, storefront: storefront)?.proceeds,
            catalog.currency == value.currency
        {
            perUnit = (catalog, .catalog)
        }
        guard let (unit, source) = perUnit else { return nil }
        let (total, overflow) = unit.milliunits.multipliedReportingOverflow(by: quantity)
        return overflow ? nil : (Money(milliunits: total, currency: unit.currency), source)
    }

    /// The part of `proceeds` a refund of `refunded` out of `value` takes back, as a negative amount: all of
    /// it for a full refund, else pro rata, rounded once to the proceeds currency's smallest unit.
    package static func returned(_ proceeds: Money, refunded: Money, of value: Money) -> Money {
        var taken = proceeds
        if refunded.milliunits != value.milliunits, value.milliunits != 0 {
            let wide = Int128(proceeds.milliunits) * Int128(refunded.milliunits) / Int128(value.milliunits)
            taken = Money(milliunits: Int64(clamping: wide), currency: proceeds.currency).roundedToMinorUnit
        }
        return Money(milliunits: -taken.milliunits, currency: taken.currency)
    }
}
