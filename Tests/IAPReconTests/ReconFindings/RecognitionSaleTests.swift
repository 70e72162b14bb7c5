import Foundation
import Testing

@testable import ReconFindings
@testable import ReconModel

/// Which transactions revenue recognition counts, at what amount and over which period (CONTRACT §5.1), read from
/// the evidence shapes Apple sends: a StoreKit 2 JWS (`expiresDate`, `inAppOwnershipType`, `offerType`,
/// `revocationDate`, `revocationType`, `revocationPercentage`, `isUpgraded`; JWSTransactionDecodedPayload,
/// https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload) and verifyReceipt's
/// `expires_date_ms`.
@Suite struct RecognitionSaleTests {
    typealias Fx = FindingFixture
    static let utc = TimeZone(identifier: "UTC") ?? .current

    /// The catalog of the findings tests, with a yearly plan, a non-renewing pass with a duration and one without.
    static var catalog: [String: [CatalogProduct]] {
        var catalog = Fx.catalog
        catalog["yearly"] = [
            CatalogProduct(productID: "yearly", type: .autoRenewable, price: Fx.usd(29_990), duration: .oneYear)
        ]
        catalog["pass"] = [
            CatalogProduct(productID: "pass", type: .nonRenewing, price: Fx.usd(9_990), duration: .threeMonths)
        ]
        catalog["pass.undated"] = [CatalogProduct(productID: "pass.undated", type: .nonRenewing, price: Fx.usd(9_990))]
        return catalog
    }

    static func sale(
        _ group: TransactionGroup, basis: RecognitionBasis = .customerPrice
    ) -> RecognitionSale? {
        let context = Fx.context(catalog: catalog)
        let facts = TransactionFacts(group, in: context)
        return RecognitionSale.of(
            facts, basis: basis, pricer: ProceedsPricer(context: context, appleProceeds: nil), timeZone: utc)
    }

    /// A monthly subscription bought three days ago, as its JWS states it, with `edit` applied.
    static func monthly(
        _ tx: String = "t1", product: String = "monthly", price: Int64 = 2_990,
        edit: (inout EvidenceEntry) -> Void = { _ in }
    ) -> TransactionGroup {
        let purchased = Fx.asOf - 3 * Fx.day
        return Fx.group(
            tx, [Fx.row("r-\(tx)", tx: tx, product: product, price: Fx.usd(price))],
            [
                Fx.evidence(tx, product: product, price: Fx.usd(price)) { entry in
                    entry.purchaseDate = purchased
                    entry.expiresDate = purchased + 30 * Fx.day
                    edit(&entry)
                }
            ])
    }

    @Test func aSubscriptionRunsToApplesExpiresDate() throws {
        let sale = try #require(Self.sale(Self.monthly()))
        #expect(sale.periodSource == .apple)
        #expect(sale.start == Fx.asOf - 3 * Fx.day)
        #expect(sale.end == Fx.asOf + 27 * Fx.day)
        #expect(sale.amount == Fx.usd(2_990))
        #expect(sale.refunds.isEmpty)
    }

    @Test func theProceedsBasisTakesTheProceedsAsTheRevenueLinesPriceThem() throws {
        // No Apple report and no catalog proceeds: price × the default rate 0.70, rounded to the cent.
        let sale = try #require(Self.sale(Self.monthly(), basis: .proceeds))
        #expect(sale.amount == Fx.usd(2_090))
    }

    @Test func verifyReceiptsExpiresDateMsStatesThePeriodToo() throws {
        let purchased = Fx.asOf - 3 * Fx.day
        let group = Fx.group(
            "t2", [Fx.row("r-t2", tx: "t2", product: "monthly", price: Fx.usd(2_990))],
            [
                Fx.verifyReceipt("t2", product: "monthly") { entry in
                    entry.purchaseDate = purchased
                    entry.expiresDate = purchased + 7 * Fx.day
                }
            ])
        let sale = try #require(Self.sale(group))
        #expect(sale.periodSource == .apple)
        #expect(sale.end == purchased + 7 * Fx.day)
    }

    @Test func withoutAnExpiryAYearlyPlanRunsForTheCatalogDuration() throws {
        let group = Self.monthly("t3", product: "yearly", price: 29_990) { $0.expiresDate = nil }
        let sale = try #require(Self.sale(group))
        #expect(sale.periodSource == .catalog)
        let start = Fx.asOf - 3 * Fx.day
        #expect(sale.end == ServicePeriod.oneYear.end(from: start, in: Self.utc))
        // A monthly plan whose catalog row states no duration and whose evidence states no expiry: at purchase.
        let undated = try #require(Self.sale(Self.monthly("t4") { $0.expiresDate = nil }))
        #expect(undated.periodSource == .none)
        #expect(undated.end == nil)
    }

    @Test func aNonRenewingPassRunsForItsCatalogDurationAlone() throws {
        let pass = Fx.group("t5", [Fx.row("r-t5", tx: "t5", product: "pass", price: Fx.usd(9_990))])
        let sale = try #require(Self.sale(pass))
        #expect(sale.periodSource == .catalog)
        #expect(sale.end == ServicePeriod.threeMonths.end(from: Fx.asOf - 3 * Fx.day, in: Self.utc))
        let undated = Fx.group(
            "t6", [Fx.row("r-t6", tx: "t6", product: "pass.undated", price: Fx.usd(9_990))])
        #expect(Self.sale(undated)?.periodSource == RecognitionSale.PeriodSource.none)
    }

    @Test func consumablesAndNonConsumablesAreRecognizedAtPurchase() throws {
        let coins = try #require(Self.sale(Fx.clean("t7")))
        #expect(coins.periodSource == .pointInTime)
        #expect(coins.end == nil)
        let premium = Fx.group(
            "t8", [Fx.row("r-t8", tx: "t8", product: "premium", price: Fx.usd(4_990))],
            [Fx.jws("t8", product: "premium", price: Fx.usd(4_990))])
        #expect(Self.sale(premium)?.periodSource == .pointInTime)
    }

    @Test func aFamilySharingCopyAFreeTrialAndASandboxPurchaseAreNoSale() {
        // inAppOwnershipType FAMILY_SHARED: a family member's access
        // (https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype).
        #expect(Self.sale(Self.monthly("t9") { $0.inAppOwnershipType = "FAMILY_SHARED" }) == nil)
        // An introductory offer (offerType 1) at Apple's price 0: a free trial.
        let trial = Self.monthly("t10", price: 0) {
            $0.offerType = 1
            $0.price = Fx.usd(0)
        }
        #expect(Self.sale(trial) == nil)
        let sandbox = Fx.group(
            "t11", [Fx.row("r-t11", tx: "t11", product: "monthly", env: .sandbox, price: Fx.usd(2_990))],
            [Fx.jws("t11", product: "monthly", price: Fx.usd(2_990), env: .sandbox)])
        #expect(Self.sale(sandbox) == nil)
    }

    @Test func aProratedRefundCarriesApplesRevocationPercentage() throws {
        let refundedAt = Fx.asOf - Fx.day
        let group = Self.monthly("t12") { entry in
            entry.cancellationDate = refundedAt
            entry.revocationType = "REFUND_PRORATED"
            entry.revocationPercentage = 66_667
            entry.signedDate = refundedAt
        }
        let sale = try #require(Self.sale(group))
        #expect(sale.refunds == [.init(at: refundedAt, kind: .prorated(thousandthsOfPercent: 66_667))])
    }

    @Test func anUpgradeWithoutAStatedShareReleasesWhatIsDeferred() throws {
        let upgradedAt = Fx.asOf - Fx.day
        let group = Self.monthly("t13") { entry in
            entry.cancellationDate = upgradedAt
            entry.isUpgraded = true
            entry.signedDate = upgradedAt
        }
        let sale = try #require(Self.sale(group))
        #expect(sale.refunds == [.init(at: upgradedAt, kind: .upgrade)])
        let totals = RecognitionSchedule.totals(sale, by: Fx.asOf)
        // Two days of thirty recognized (0.199… → 0.20), the rest released, nothing reversed.
        #expect(totals.recognized == 200)
        #expect(totals.released == 2_790)
        #expect(totals.reversed == 0)
    }

    @Test func aReversedRefundIsKeptWithItsReversal() throws {
        let refundedAt = Fx.asOf - 2 * Fx.day
        let reversedAt = Fx.asOf - Fx.day
        let purchased = Fx.asOf - 3 * Fx.day
        let group = Fx.group(
            "t14", [Fx.row("r-t14", tx: "t14", product: "monthly", price: Fx.usd(2_990))],
            [
                Fx.evidence("t14", product: "monthly", price: Fx.usd(2_990), recordedAt: refundedAt) { entry in
                    entry.purchaseDate = purchased
                    entry.expiresDate = purchased + 30 * Fx.day
                    entry.cancellationDate = refundedAt
                    entry.revocationType = "REFUND_FULL"
                    entry.signedDate = refundedAt
                },
                // Apple signs the transaction again without revocationDate: the refund is reversed.
                Fx.evidence("t14", source: .serverAPI, product: "monthly", price: Fx.usd(2_990), recordedAt: reversedAt)
                { entry in
                    entry.purchaseDate = purchased
                    entry.expiresDate = purchased + 30 * Fx.day
                    entry.signedDate = reversedAt
                },
            ])
        let sale = try #require(Self.sale(group))
        #expect(sale.refunds == [.init(at: refundedAt, kind: .full, reversedAt: reversedAt)])
        let totals = RecognitionSchedule.totals(sale, by: Fx.asOf)
        #expect(totals.refunded == 0)
        #expect(totals.recognized == RecognitionSchedule.linear(sale, at: Fx.asOf))
    }
}
