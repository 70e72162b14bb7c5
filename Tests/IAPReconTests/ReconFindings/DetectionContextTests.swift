import Testing

@testable import ReconFindings
@testable import ReconModel

/// The catalog row a purchase is priced by: its storefront's, else the default row in its currency, else any row in
/// its currency, else the default row, else the first.
@Suite struct DetectionContextTests {
    static func row(_ price: Int64, _ currency: String, _ storefront: String?) -> CatalogProduct {
        CatalogProduct(
            productID: "coins", type: .consumable, price: Money(milliunits: price, currency: currency),
            storefront: storefront)
    }

    static func context(_ rows: [CatalogProduct]) -> DetectionContext {
        DetectionContext(
            asOf: 0, deliveryGraceMillis: 0, finishGraceMillis: 0, pendingLimitMillis: 0, bundleIDs: [],
            catalog: ["coins": rows])
    }

    static let usa = row(990, "USD", "USA")
    static let germany = row(1_090, "EUR", "DEU")
    static let france = row(1_190, "EUR", "FRA")
    static let euroDefault = row(1_290, "EUR", nil)
    static let dollarDefault = row(1_390, "USD", nil)

    @Test func theStorefrontsRowFirst() {
        let context = Self.context([Self.dollarDefault, Self.usa, Self.germany, Self.euroDefault])
        #expect(context.product("coins", storefront: "DEU", currency: "USD") == Self.germany)
    }

    @Test func thenTheDefaultRowInTheCurrencyThenAnyRowInIt() {
        let withDefault = Self.context([Self.dollarDefault, Self.germany, Self.france, Self.euroDefault])
        #expect(withDefault.product("coins", storefront: "AUT", currency: "EUR") == Self.euroDefault)
        #expect(withDefault.product("coins", storefront: nil, currency: "eur") == Self.euroDefault)
        let without = Self.context([Self.dollarDefault, Self.germany, Self.france])
        #expect(without.product("coins", storefront: "AUT", currency: "EUR") == Self.germany)
    }

    @Test func thenTheDefaultRowThenTheFirst() {
        #expect(
            Self.context([Self.usa, Self.dollarDefault, Self.germany]).product(
                "coins", storefront: "JPN", currency: "JPY") == Self.dollarDefault)
        #expect(
            Self.context([Self.usa, Self.germany]).product("coins", storefront: "JPN", currency: nil) == Self.usa)
    }

    @Test func aProductOfOneRowIsThatRowAndAnUnknownOneIsNone() {
        let context = Self.context([Self.germany])
        #expect(context.product("coins", storefront: "USA", currency: "USD") == Self.germany)
        #expect(context.product("gems", storefront: "USA", currency: "USD") == nil)
    }
}
