import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// Apple's fields mean what Apple's documentation says they mean.
@Suite struct AppleSemanticsTests {
    /// An uploaded app receipt whose offline signature check concluded `signature`.
    static func appReceipt(
        _ id: String, tx: String, signature: SignatureStatus, env: StoreEnvironment = .production,
        receiptType: String = "Production", claimed: StoreEnvironment? = nil, records: [LedgerTransaction]
    ) -> ReceiptCase {
        ReceiptCase(
            receipt: ReceiptHeader(receiptID: id, userID: "u1", format: .appReceipt, claimedEnvironment: claimed),
            decoded: ReceiptEvidence(
                format: .appReceipt, environment: env, receiptType: receiptType, bundleID: Fx.bundle,
                signature: signature, signatureDetail: signature == .verified ? nil : "PKCS#7 signature check failed",
                entries: [EvidenceEntry(transactionID: tx, productID: "gems100", quantity: 1)]),
            records: records)
    }

    static let cases: [DetectorCase] = [
        // A failed signature is a finding, whatever the ledger's status says.
        DetectorCase(
            name: "a forged app receipt on a row already marked verified is INVALID_RECEIPT",
            groups: [
                Fx.group(
                    "1900000100", [Fx.row("r1", tx: "1900000100", receipt: "rc1")],
                    [Fx.offlineReceipt("1900000100", signature: .invalid)])
            ],
            receipts: [
                appReceipt(
                    "rc1", tx: "1900000100", signature: .invalid,
                    records: [Fx.row("r1", tx: "1900000100", receipt: "rc1")])
            ],
            expected: [ExpectedFinding(.invalidReceipt, "1900000100", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "an app receipt whose chain is untrusted is INVALID_RECEIPT and claims no environment",
            groups: [Fx.group("1900000200", [], [Fx.offlineReceipt("1900000200", signature: .untrusted)])],
            receipts: [
                appReceipt("rc2", tx: "1900000200", signature: .untrusted, claimed: .sandbox, records: [])
            ],
            expected: [ExpectedFinding(.invalidReceipt, "1900000200", users: ["u1"], amount: nil)]),
        DetectorCase(
            name: "a forged receipt's entries raise no MISSING_RECORD and no environment finding",
            groups: [
                Fx.group(
                    "1900000300", [Fx.row("r3", tx: "1900000300", receipt: "rc3")],
                    [Fx.offlineReceipt("1900000300", env: .sandbox, signature: .invalid)])
            ],
            receipts: [
                appReceipt(
                    "rc3", tx: "1900000300", signature: .invalid, env: .sandbox, receiptType: "ProductionSandbox",
                    records: [Fx.row("r3", tx: "1900000300", receipt: "rc3")])
            ],
            expected: [ExpectedFinding(.invalidReceipt, "1900000300", users: ["u1"], amount: Fx.usd(9_990))]),
        // Test purchases of every kind.
        DetectorCase(
            name: "an Xcode app receipt (local certificate, untrusted) marks a test purchase booked as Production",
            groups: [
                Fx.group(
                    "1900000400", [Fx.row("r4", tx: "1900000400", receipt: "rc4")],
                    [Fx.offlineReceipt("1900000400", env: .xcode, signature: .untrusted)])
            ],
            receipts: [
                appReceipt(
                    "rc4", tx: "1900000400", signature: .untrusted, env: .xcode, receiptType: "Xcode",
                    records: [Fx.row("r4", tx: "1900000400", receipt: "rc4")])
            ],
            expected: [ExpectedFinding(.sandboxInProduction, "1900000400", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "an Xcode JWS (untrusted local key) booked as Production is SANDBOX_IN_PRODUCTION",
            groups: [
                Fx.group(
                    "1900000410", [Fx.row("r41", tx: "1900000410")],
                    [Fx.evidence("1900000410", entryEnv: .xcode, signature: .untrusted)])
            ],
            expected: [ExpectedFinding(.sandboxInProduction, "1900000410", users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "a LocalTesting JWS booked as Production is SANDBOX_IN_PRODUCTION, never a missing record",
            groups: [
                Fx.group(
                    "1900000420", [Fx.row("r42", tx: "1900000420")],
                    [Fx.evidence("1900000420", entryEnv: .localTesting, signature: .untrusted)]),
                Fx.group("1900000430", [], [Fx.evidence("1900000430", entryEnv: .localTesting, signature: .untrusted)]),
            ],
            expected: [ExpectedFinding(.sandboxInProduction, "1900000420", users: ["u1"], amount: Fx.usd(9_990))]),
        // Apple's `price` is the total for the quantity.
        DetectorCase(
            name: "near miss: 2 × 4.99 in the ledger is Apple's price of 9.98",
            groups: [
                Fx.group(
                    "1900000500", [Fx.row("r5", tx: "1900000500", quantity: 2, price: Fx.usd(4_990))],
                    [Fx.evidence("1900000500", quantity: 2, price: Fx.usd(9_980))])
            ],
            expected: []),
        DetectorCase(
            name: "2 × 4.99 in the ledger against Apple's total of 4.99 is 4.99 apart",
            groups: [
                Fx.group(
                    "1900000600", [Fx.row("r6", tx: "1900000600", quantity: 2, price: Fx.usd(4_990))],
                    [Fx.evidence("1900000600", quantity: 2, price: Fx.usd(4_990))])
            ],
            expected: [ExpectedFinding(.priceMismatch, "1900000600", users: ["u1"], amount: Fx.usd(4_990))]),
        DetectorCase(
            name: "a row without price is worth Apple's total, not the total times the quantity",
            groups: [
                Fx.group(
                    "1900000700",
                    [
                        Fx.row("r7", tx: "1900000700", quantity: 2, price: nil),
                        Fx.row("r7b", tx: "1900000700", ago: Fx.day, quantity: 2, price: nil),
                    ],
                    [Fx.evidence("1900000700", quantity: 2, price: Fx.usd(9_980))])
            ],
            expected: [ExpectedFinding(.duplicateRecord, "1900000700", users: ["u1"], amount: Fx.usd(9_980))]),
        // Catalog rows by currency.
        DetectorCase(
            name: "near miss: a JPY booking without storefront is not priced against the USD default row",
            groups: [
                Fx.group(
                    "1900000800",
                    [
                        Fx.row(
                            "r8", tx: "1900000800", price: Money(milliunits: 160_000, currency: "JPY"), storefront: nil)
                    ])
            ],
            context: Fx.context(catalog: [
                "gems100": [CatalogProduct(productID: "gems100", type: .consumable, price: Fx.usd(990))]
            ]),
            expected: []),
        DetectorCase(
            name: "a JPY booking without storefront is priced against the catalog's JPY row",
            groups: [
                Fx.group(
                    "1900000900",
                    [
                        Fx.row(
                            "r9", tx: "1900000900", price: Money(milliunits: 1_600_000, currency: "JPY"),
                            storefront: nil)
                    ])
            ],
            expected: [
                ExpectedFinding(
                    .priceMismatch, "1900000900", users: ["u1"], amount: Money(milliunits: 100_000, currency: "JPY"))
            ]),
        // Family Sharing.
        DetectorCase(
            name: "a row crediting a family-shared transaction is counted at zero",
            groups: [
                Fx.group(
                    "1900001000", [Fx.row("r10", tx: "1900001000"), Fx.row("r10b", tx: "1900001000", ago: Fx.day)],
                    [Fx.serverAPI("1900001000") { $0.inAppOwnershipType = "FAMILY_SHARED" }])
            ],
            expected: [ExpectedFinding(.duplicateRecord, "1900001000", users: ["u1"], amount: Fx.usd(0))]),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func familySharedIsNeverRevenue() {
        let group = Fx.group(
            "1900002000", [Fx.row("r1", tx: "1900002000")],
            [Fx.serverAPI("1900002000") { $0.inAppOwnershipType = "FAMILY_SHARED" }])
        var builder = RevenueBuilder(timeZone: TimeZone(identifier: "UTC")!, context: Fx.context())
        builder.add(group)
        #expect(builder.rows().allSatisfy { $0.gross == 0 && $0.estimatedProceeds == 0 })
    }

    /// Money that foots: 1 000 × 4.99 USD at a 0.85 proceeds rate is 4 241.50, not a sum of 1 000
    /// per-transaction roundings (4 242.00).
    @Test func estimatedProceedsAreTheNetTimesTheRateRoundedOnce() {
        let catalog: [String: [CatalogProduct]] = [
            "monthly": [
                CatalogProduct(
                    productID: "monthly", type: .autoRenewable, price: Fx.usd(4_990), proceedsRatePPM: 850_000)
            ]
        ]
        var builder = RevenueBuilder(timeZone: TimeZone(identifier: "UTC")!, context: Fx.context(catalog: catalog))
        for index in 0..<1_000 {
            let tx = "19000030\(1_000 + index)"
            builder.add(
                Fx.group(tx, [Fx.row("r\(index)", tx: tx, product: "monthly", price: Fx.usd(4_990))], [Fx.jws(tx)]))
        }
        let rows = builder.rows()
        #expect(rows.count == 1)
        #expect(rows.first?.gross == 4_990_000)
        #expect(rows.first?.estimatedProceeds == 4_241_500)
    }

    /// A prorated refund is rounded to the cent when computed, so gross − refunds = net foots.
    @Test func proratedRefundIsRoundedToTheCent() {
        let tx = "1900004000"
        let group = Fx.group(
            tx, [Fx.row("r1", tx: tx)],
            [
                Fx.serverAPI(tx) {
                    $0.cancellationDate = Fx.asOf - Fx.day
                    $0.revocationType = "REFUND_PRORATED"
                    $0.revocationPercentage = 50_000
                }
            ])
        var builder = RevenueBuilder(timeZone: TimeZone(identifier: "UTC")!, context: Fx.context())
        builder.add(group)
        let refunds = builder.rows().map(\.refunds).reduce(0, +)
        #expect(refunds == 5_000)  // 50 % of 9.99 = 4.995 → 5.00
        #expect(builder.rows().allSatisfy { $0.net % 10 == 0 && $0.estimatedProceeds % 10 == 0 })
    }
}
