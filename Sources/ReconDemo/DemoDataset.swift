import AppStoreSimulator
import AppStoreTestSigning
import Foundation
import IAPRecon

/// A generated, realistic store for the demo: a catalog, a ledger of thousands of purchases over 30 days in USD,
/// EUR and JPY storefronts, receipts in all three formats, and the App Store simulator's seed that agrees with
/// them, and the backend's subscription entitlements — with every finding code the detectors implement (CONTRACT §4)
/// injected on purpose.
///
/// Deterministic for a seed.
public struct DemoDataset: Sendable {
    public var bundleID: String
    public var asOf: Int64
    public var products: String
    public var transactions: String
    public var receipts: String
    /// The backend's subscription entitlements (`entitlements.csv`, CONTRACT §1.8).
    public var entitlements = ""
    /// Who agreed to share consumption information with Apple (`consents.csv`, CONTRACT §1.10).
    public var consents = ""
    /// Notifications the webhook stored that the history sweep does not bring (`notifications.jsonl`, §1.4).
    public var notifications = ""
    public var seed: SimulatorSeed
    /// Transactions whose Server API calls should fail (to show a purchase stuck pending).
    public var unreachableTransactionIDs: [String]
    /// What was injected, by finding code: (code, transaction id), or for `PAYMENT_MISMATCH` (code,
    /// region currency).
    public var injected: [(FindingCode, String)]
    /// The days (since 1970-01-01, in ``salesReportTimeZone``) Apple's Summary Sales Reports
    /// cover: quiet days no other anomaly touches.
    public var salesReportDays: [Int] = []
    /// Apple's zone for worldwide agreements, the sales reports' days.
    public static let salesReportTimeZone = "America/Los_Angeles"
    /// The Apple fiscal month of the Financial Reports and the payment summary: the last that ended
    /// before the as-of (nil when ``AppleFiscalCalendar`` has none).
    public var financialPeriod: FiscalPeriod?
    /// Sales of the developer's other app: in Apple's Financial Reports and payments (they cover
    /// the whole developer account), unknown to this app's ledger and to the simulator's seed.
    public var otherAppSales: [SimulatorTransaction] = []
    /// Regions whose Financial Report finance did not download: paid in the summary, not imported.
    public var undownloadedReportRegions: [String] = []

    public static let defaultAsOf: Int64 = 1_795_176_000_000  // 2026-11-20T12:00:00Z
    public static let sharedSecret = "demo-shared-secret-7f3a"
}

extension DemoDataset {
    struct Product {
        var id: String
        var type: ProductType
        var appleType: String
        /// Price per storefront (milliunits).
        var prices: [String: Int64]
        var proceeds: String
        /// The catalog's `duration` (CONTRACT §1.3): the period a subscription buys; empty for other products.
        var duration = ""
    }

    static let storefronts: [(code: String, currency: String)] = [
        ("USA", "USD"), ("DEU", "EUR"), ("FRA", "EUR"), ("JPN", "JPY"),
    ]

    static let catalog: [Product] = [
        Product(
            id: "coins_100", type: .consumable, appleType: "Consumable",
            prices: ["USD": 990, "EUR": 990, "JPY": 160_000], proceeds: "0.70"),
        Product(
            id: "coins_1000", type: .consumable, appleType: "Consumable",
            prices: ["USD": 7_990, "EUR": 8_990, "JPY": 1_200_000], proceeds: "0.70"),
        Product(
            id: "remove_ads", type: .nonConsumable, appleType: "Non-Consumable",
            prices: ["USD": 2_990, "EUR": 2_990, "JPY": 480_000], proceeds: "0.70"),
        Product(
            id: "pro_monthly", type: .autoRenewable, appleType: "Auto-Renewable Subscription",
            prices: ["USD": 4_990, "EUR": 5_490, "JPY": 800_000], proceeds: "0.85", duration: "P1M"),
        Product(
            id: "season_pass", type: .nonRenewing, appleType: "Non-Renewing Subscription",
            prices: ["USD": 9_990, "EUR": 10_990, "JPY": 1_500_000], proceeds: "0.70", duration: "P3M"),
        // pro_monthly's higher level of service in its subscription group: only the upgrade sells it.
        Product(
            id: "pro_yearly", type: .autoRenewable, appleType: "Auto-Renewable Subscription",
            prices: ["USD": 39_990, "EUR": 44_990, "JPY": 6_000_000], proceeds: "0.85", duration: "P1Y"),
    ]

    /// The products the clean purchases are drawn from.
    static let everydayCatalog = catalog.filter { $0.id != "pro_yearly" }

    /// One ledger row plus how its receipt is made.
    struct Purchase {
        var recordID: String
        var userID: String
        var productID: String
        var transactionID: String
        var originalTransactionID: String
        var purchaseDate: Int64
        var quantity = 1
        var ledgerEnvironment = "Production"
        var price: Int64?
        var currency: String
        var storefront: String
        var status = "verified"
        var deliveredAt: Int64?
        var finishedAt: Int64?
        var receiptID: String?
    }

    /// Generates the dataset.
    ///
    /// - Parameters:
    ///   - seed: the random seed; the same seed gives the same files.
    ///   - purchases: clean purchases to generate (anomalies come on top).
    public static func generate(seed: UInt64 = 1, purchases count: Int = 3_000, asOf: Int64 = defaultAsOf) throws
        -> DemoDataset
    {
        let builder = try Builder(seed: seed, asOf: asOf)
        try builder.addCleanPurchases(count)
        // Anomalies, each a finding code of CONTRACT §4 (a few of each).
        builder.addDuplicateRecords()
        builder.addSharedTransactions()
        try builder.addRestoreAsPurchase()
        try builder.addUndelivered()
        builder.addDeliveredUnverified()
        try builder.addUnfinished()
        try builder.addStuckPending()
        try builder.addSettledByServerAPI()
        try builder.addSandboxInProduction()
        try builder.addProductionAsSandbox()
        try builder.addEnvironmentClaimMismatch()
        builder.addInvalidReceipt()
        try builder.addBundleMismatch()
        try builder.addProductMismatch()
        try builder.addRefundedDelivered()
        try builder.addMissingRecords()
        try builder.addUnknownProduct()
        try builder.addPriceMismatch()
        // Apple's later word, which only the notification-history sweep brings (no receipt says it).
        try builder.addRefundLearnedLater()
        try builder.addRefundReversed()
        try builder.addUnbookedRenewal()
        builder.addFamilyRevoke()
        try builder.addSalesReportMismatches()
        try builder.addUpgrade()
        builder.addMonthCloseMismatches()
        try builder.addSubscriptions()
        // Apple's requests and alarms of 2026 (CONTRACT §7): after every other case, so their draws are unchanged.
        try builder.addConsumptionRequests()
        try builder.addAppleAlarms()
        var dataset = DemoDataset(
            bundleID: builder.bundle, asOf: asOf, products: builder.productsCSV(), transactions: builder.ledgerCSV(),
            receipts: builder.receiptLines.joined(separator: "\n") + "\n", seed: builder.simulatorSeed(),
            unreachableTransactionIDs: builder.unreachable, injected: builder.injected,
            salesReportDays: builder.salesReportDays)
        dataset.entitlements = builder.entitlementLines.joined(separator: "\n") + "\n"
        dataset.consents = builder.consentLines.joined(separator: "\n") + "\n"
        dataset.notifications = builder.notificationLines.map { $0 + "\n" }.joined()
        dataset.financialPeriod = builder.financialPeriod
        dataset.otherAppSales = builder.otherAppSales
        dataset.undownloadedReportRegions = builder.undownloadedReportRegions
        return dataset
    }
}
