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

/// Concise builders for detector tests: ledger rows, evidence and contexts with clean defaults,
/// so each case states only what makes it wrong.
enum FindingFixture {
    /// "Now" for every case: 2026-11-18T11:06:40Z.
    static let asOf: Int64 = 1_795_000_000_000
    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    static let bundle = "com.example.app"

    /// Money in USD milliunits.
    static func usd(_ milli: Int64) -> Money { Money(milliunits: milli, currency: "USD") }

    /// The catalog: a consumable, a non-consumable and a subscription.
    static let catalog: [String: [CatalogProduct]] = [
        "gems100": [
            CatalogProduct(productID: "gems100", type: .consumable, price: usd(9_990)),
            CatalogProduct(productID: "gems100", type: .consumable, price: usd(9_990), storefront: "USA"),
            CatalogProduct(
                productID: "gems100", type: .consumable, price: Money(milliunits: 1_500_000, currency: "JPY"),
                storefront: "JPN"),
        ],
        "gems500": [CatalogProduct(productID: "gems500", type: .consumable, price: usd(49_990))],
        "premium": [CatalogProduct(productID: "premium", type: .nonConsumable, price: usd(4_990))],
        "monthly": [CatalogProduct(productID: "monthly", type: .autoRenewable, price: usd(2_990))],
    ]

    /// Apple's JWS `type` for the catalog's products.
    static func appleType(_ product: String) -> String? {
        switch catalog[product]?.first?.type {
        case .consumable: return "Consumable"
        case .nonConsumable: return "Non-Consumable"
        case .autoRenewable: return "Auto-Renewable Subscription"
        case .nonRenewing: return "Non-Renewing Subscription"
        case nil: return nil
        }
    }

    /// The detection context of the tests, with the spec's default grace periods.
    static func context(
        catalog: [String: [CatalogProduct]] = FindingFixture.catalog, bundleIDs: Set<String> = [FindingFixture.bundle],
        deliveryGrace: Int64 = FindingFixture.hour, finishGrace: Int64 = FindingFixture.day,
        pendingLimit: Int64 = FindingFixture.day
    ) -> DetectionContext {
        DetectionContext(
            asOf: asOf, deliveryGraceMillis: deliveryGrace, finishGraceMillis: finishGrace,
            pendingLimitMillis: pendingLimit, bundleIDs: bundleIDs, catalog: catalog)
    }

    /// A ledger row; by default a verified USD 9.99 `gems100` purchase three days ago, delivered a
    /// minute after purchase and finished a minute later.
    ///
    /// - Parameters:
    ///   - ago: how long before ``asOf`` it was purchased.
    ///   - deliveredAgo: how long before ``asOf`` it was delivered; nil: one minute after purchase.
    static func row(
        _ recordID: String, tx: String, user: String = "u1", product: String = "gems100", original: String? = nil,
        ago: Int64 = 3 * FindingFixture.day, quantity: Int = 1, env: StoreEnvironment = .production,
        price: Money? = FindingFixture.usd(9_990), storefront: String? = "USA", status: VerificationStatus = .verified,
        delivered: Bool = true, deliveredAgo: Int64? = nil, finished: Bool = true, receipt: String? = nil
    ) -> LedgerTransaction {
        let purchased = asOf - ago
        let deliveredAt = delivered ? asOf - (deliveredAgo ?? (ago - minute)) : nil
        return LedgerTransaction(
            recordID: recordID, userID: user, productID: product, transactionID: tx, originalTransactionID: original,
            purchaseDate: purchased, quantity: quantity, environment: env, price: price, storefront: storefront,
            verificationStatus: status, deliveredAt: deliveredAt,
            finishedAt: finished ? deliveredAt.map { $0 + minute } : nil, receiptID: receipt)
    }

    /// One piece of evidence; by default what a verified StoreKit 2 JWS for a Production
    /// `gems100` purchase at USD 9.99 says.
    ///
    /// - Parameter edit: changes to the entry (cancellations, revocations, ownership).
    static func evidence(
        _ tx: String, source: EvidenceSource = .offline, format: ReceiptFormat? = .signedTransaction,
        product: String? = "gems100", quantity: Int? = 1, original: String? = nil,
        price: Money? = FindingFixture.usd(9_990), entryEnv: StoreEnvironment? = .production,
        receiptEnv: StoreEnvironment? = nil, bundle: String? = FindingFixture.bundle,
        signature: SignatureStatus = .verified,
        status: Int? = nil, uploader: String? = "u1", receipt: String?? = .none,
        recordedAt: Int64 = FindingFixture.asOf - FindingFixture.day,
        edit: (inout EvidenceEntry) -> Void = { _ in }
    ) -> EvidenceRecord {
        var entry = EvidenceEntry(
            transactionID: tx, originalTransactionID: original ?? tx, productID: product, quantity: quantity,
            purchaseDate: asOf - 3 * day, price: price, storefront: "USA",
            productType: product.flatMap(appleType), environment: entryEnv, bundleID: bundle)
        edit(&entry)
        let receiptID: String?
        switch receipt {
        case .none: receiptID = source == .serverAPI ? nil : "rc-\(tx)"
        case .some(let id): receiptID = id
        }
        return EvidenceRecord(
            entry: entry, source: source, receiptID: receiptID, receiptFormat: source == .serverAPI ? nil : format,
            environment: receiptEnv, bundleID: bundle, signature: signature, appleStatus: status,
            uploaderUserID: uploader, recordedAt: recordedAt)
    }

    /// A verified StoreKit 2 JWS decoded offline.
    static func jws(
        _ tx: String, product: String = "gems100", price: Money? = FindingFixture.usd(9_990),
        env: StoreEnvironment = .production,
        signature: SignatureStatus = .verified, original: String? = nil, uploader: String? = "u1"
    ) -> EvidenceRecord {
        evidence(
            tx, product: product, original: original, price: price, entryEnv: env, signature: signature,
            uploader: uploader)
    }

    /// An app-receipt entry as Apple's verifyReceipt returned it (no price; environment from the
    /// answer as a whole).
    static func verifyReceipt(
        _ tx: String, product: String = "gems100", quantity: Int = 1, status: Int = 0,
        env: StoreEnvironment? = .production, uploader: String? = "u1",
        recordedAt: Int64 = FindingFixture.asOf - FindingFixture.day,
        edit: (inout EvidenceEntry) -> Void = { _ in }
    ) -> EvidenceRecord {
        evidence(
            tx, source: .verifyReceipt, format: .appReceipt, product: product, quantity: quantity, price: nil,
            entryEnv: nil, receiptEnv: env, signature: .notChecked, status: status, uploader: uploader,
            recordedAt: recordedAt, edit: edit)
    }

    /// An app-receipt entry decoded offline (signature not checked unless stated).
    static func offlineReceipt(
        _ tx: String, product: String = "gems100", env: StoreEnvironment? = .production,
        signature: SignatureStatus = .notChecked, uploader: String? = "u1",
        edit: (inout EvidenceEntry) -> Void = { _ in }
    ) -> EvidenceRecord {
        evidence(
            tx, format: .appReceipt, product: product, price: nil, entryEnv: nil, receiptEnv: env,
            signature: signature, uploader: uploader, edit: edit)
    }

    /// A transaction as the App Store Server API returned it (a JWS payload, no receipt).
    static func serverAPI(
        _ tx: String, product: String = "gems100", price: Money? = FindingFixture.usd(9_990),
        env: StoreEnvironment = .production,
        bundle: String = FindingFixture.bundle, recordedAt: Int64 = FindingFixture.asOf - FindingFixture.day,
        edit: (inout EvidenceEntry) -> Void = { _ in }
    ) -> EvidenceRecord {
        evidence(
            tx, source: .serverAPI, product: product, price: price, entryEnv: env, bundle: bundle,
            signature: .notChecked, uploader: nil, recordedAt: recordedAt, edit: edit)
    }

    /// A transaction group.
    static func group(_ tx: String, _ rows: [LedgerTransaction], _ evidence: [EvidenceRecord] = []) -> TransactionGroup
    {
        TransactionGroup(
            transactionID: tx, records: rows.sorted { $0.recordID < $1.recordID }, evidence: evidence)
    }

    /// A clean purchase: one verified, delivered, finished row and its verified JWS.
    static func clean(_ tx: String, record: String? = nil, user: String = "u1") -> TransactionGroup {
        group(tx, [row(record ?? "r-\(tx)", tx: tx, user: user)], [jws(tx, uploader: user)])
    }

    /// An uploaded receipt's case; by default a verified app receipt for this app in Production.
    static func receipt(
        _ id: String, uploader: String? = "u1", format: ReceiptFormat = .appReceipt, claimed: StoreEnvironment? = nil,
        decodedEnv: StoreEnvironment? = .production, bundle: String? = FindingFixture.bundle,
        entries: [EvidenceEntry] = [], failure: ReceiptDecodingError? = nil, appleStatus: Int? = nil,
        appleEnv: StoreEnvironment? = nil, records: [LedgerTransaction] = []
    ) -> ReceiptCase {
        let decoded =
            failure == nil
            ? ReceiptEvidence(
                format: format, environment: decodedEnv, bundleID: bundle, signature: .verified, entries: entries)
            : nil
        return ReceiptCase(
            receipt: ReceiptHeader(receiptID: id, userID: uploader, format: format, claimedEnvironment: claimed),
            decodeFailure: failure, decoded: decoded, appleStatus: appleStatus, appleEnvironment: appleEnv,
            records: records)
    }
}

/// The part of a finding a case asserts: code, transaction, users and amount.
struct ExpectedFinding: Hashable, Comparable, CustomStringConvertible, Sendable {
    var code: FindingCode
    var transactionID: String
    var users: [String]
    var amount: Money?

    init(_ code: FindingCode, _ transactionID: String, users: [String], amount: Money?) {
        self.code = code
        self.transactionID = transactionID
        self.users = users.sorted()
        self.amount = amount
    }

    init(_ finding: Finding) {
        self.init(finding.code, finding.transactionID, users: finding.userIDs, amount: finding.amount)
    }

    var description: String {
        let money = amount.map { "\($0.milliunits) \($0.currency)" } ?? "no amount"
        return "\(code.rawValue) \(transactionID) [\(users.joined(separator: ","))] \(money)"
    }

    static func < (lhs: ExpectedFinding, rhs: ExpectedFinding) -> Bool { lhs.description < rhs.description }
}

/// One detector case: inputs and exactly the findings they must produce (nothing else may fire).
struct DetectorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var groups: [TransactionGroup] = []
    var originals: [OriginalTransactionGroup] = []
    var receipts: [ReceiptCase] = []
    var context: DetectionContext = FindingFixture.context()
    /// Apple's Summary Sales Reports the groups are reconciled against, if any.
    var sales: SalesInput? = nil
    /// Apple's Financial Reports and payment summaries the groups are reconciled against, if any.
    var finance: FinanceInput? = nil
    /// The backend's entitlements and Apple's word on their subscriptions, if any.
    var subscriptions: SubscriptionInput? = nil
    /// Apple's requests and alarms (CONTRACT §7), if any.
    var apple: AppleInput? = nil
    var expected: [ExpectedFinding]

    var testDescription: String { name }

    /// Apple's sales report side of a case: the covered days and the in-app purchase rows.
    struct SalesInput: Sendable {
        var timeZone: TimeZone
        var days: [Int]
        var apple: [SalesReportRow]
    }

    /// Entitlements with Apple's status answers and the evidence under each original transaction id.
    struct SubscriptionInput: Sendable {
        var entitlements: [Entitlement]
        var statuses: [SubscriptionStatus] = []
        var evidence: [EvidenceRecord] = []
    }

    /// Kept notifications, the consumption requests read from them, and the users each app transaction id links.
    struct AppleInput: Sendable {
        var notices: [AppleNotice] = []
        var requests: [ConsumptionRequestLine] = []
        var users: [String: [String]] = [:]
    }

    /// Apple's Financial Report rows and payment summaries of a case (days in America/Los_Angeles).
    struct FinanceInput: Sendable {
        var rows: [FinancialReportRow]
        var payments: [PaymentSummary] = []
    }

    /// Runs `detectors` (every detector by default) over the inputs, and the sales
    /// reconciliation's detector over the groups when the case has sales reports.
    func run(detectors: DetectorSet = .all) -> [Finding] {
        let found = Detection.run(
            groups: groups, originals: originals, receipts: receipts, context: context, detectors: detectors)
        var all = found
        if let sales {
            var reconciliation = SalesReconciliation(
                timeZone: sales.timeZone, days: sales.days, apple: sales.apple, asOf: context.asOf)
            for group in groups { reconciliation.add(TransactionFacts(group, in: context)) }
            all = SalesReportMismatch.merge(
                reconciliation.lines(), timeZone: sales.timeZone.identifier, into: all, detectors: detectors.sales)
        }
        if let finance {
            let zone = TimeZone(identifier: "America/Los_Angeles") ?? .current
            var proceeds = AppleProceeds(timeZone: zone)
            proceeds.add(financial: finance.rows)
            var reconciliation = FinancialReconciliation(
                timeZone: zone, rows: finance.rows, asOf: context.asOf, app: SalesReportApp(),
                pricer: ProceedsPricer(context: context, appleProceeds: proceeds))
            for group in groups { reconciliation.add(TransactionFacts(group, in: context)) }
            let built = MonthCloseBuilder.build(
                reconciliation, summaries: finance.payments, reportPeriods: finance.rows.map(\.period),
                timeZone: zone.identifier, financial: detectors.financial, payment: detectors.payment)
            var collector = FindingCollector()
            for finding in all + built.findings { collector.report(finding) }
            all = collector.sorted
        }
        if let subscriptions {
            let comparison = SubscriptionComparison(
                context: context, lookbackMillis: 60 * Fx.day, toleranceMillis: Fx.day)
            var collector = FindingCollector()
            for finding in all { collector.report(finding) }
            for entitlement in subscriptions.entitlements {
                let status = subscriptions.statuses.first {
                    $0.originalTransactionID == entitlement.originalTransactionID
                }
                let evidence = subscriptions.evidence.filter {
                    $0.entry.originalTransactionID == entitlement.originalTransactionID
                }
                guard let line = comparison.line(entitlement, status: status, evidence: evidence) else { continue }
                for detector in detectors.subscription {
                    detector.inspect(line, tolerance: Fx.day, asOf: context.asOf, into: &collector)
                }
            }
            all = collector.sorted
        }
        if let apple {
            var collector = FindingCollector()
            for finding in all { collector.report(finding) }
            for line in apple.requests {
                for detector in detectors.consumption { detector.inspect(line, asOf: context.asOf, into: &collector) }
            }
            for notice in apple.notices {
                for detector in detectors.externalPurchase { detector.inspect(notice, into: &collector) }
                if notice.type == "RESCIND_CONSENT" {
                    let users = notice.appTransactionID.flatMap { apple.users[$0] } ?? []
                    for detector in detectors.consent { detector.inspect(notice, users: users, into: &collector) }
                }
            }
            all = collector.sorted
        }
        return all
    }

    /// Asserts the findings are exactly the expected ones, each with a one-line detail.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        let findings = run()
        #expect(
            findings.map(ExpectedFinding.init).sorted() == expected.sorted(), "\(name)", sourceLocation: sourceLocation)
        for finding in findings {
            #expect(!finding.detail.isEmpty && !finding.detail.contains("\n"), sourceLocation: sourceLocation)
        }
    }
}

/// Short name for the builders in case tables.
typealias Fx = FindingFixture
