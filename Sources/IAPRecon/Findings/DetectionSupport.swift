/// Questions every detector asks, answered in exactly one place.
///
/// The detectors in this folder differ only in the rule they check; what "counts as revenue",
/// what a row is worth, which evidence may be trusted, which environment a purchase really
/// happened in and whether Apple refunded it are decided here, so two findings about the same
/// transaction never disagree on those facts.
enum DetectionSupport {
    /// Apple's verifyReceipt statuses that mean "this receipt is not valid" (SPEC §3).
    static let invalidReceiptStatuses: Set<Int> = [21002, 21003, 21010]

    /// The order rows were booked in: purchase date, then record id.
    ///
    /// "The first" row always means the first in this order.
    static func bookingOrder(_ lhs: LedgerTransaction, _ rhs: LedgerTransaction) -> Bool {
        if lhs.purchaseDate != rhs.purchaseDate { return lhs.purchaseDate < rhs.purchaseDate }
        return lhs.recordID < rhs.recordID
    }

    /// Whether the ledger itself counts the row as revenue: booked as Production and not marked
    /// `invalid` (pending, verified and error rows all count).
    static func ledgerCountsAsRevenue(_ row: LedgerTransaction) -> Bool {
        row.environment.isProduction && row.verificationStatus != .invalid
    }

    /// Whether an environment is one of Apple's test environments (Sandbox, Xcode, LocalTesting).
    ///
    /// An unrecognised raw value is neither Production nor a test environment: it proves nothing.
    static func isTestEnvironment(_ environment: StoreEnvironment?) -> Bool {
        switch environment {
        case .sandbox, .xcode, .localTesting: return true
        default: return false
        }
    }

    /// The first row of each transaction id, in booking order: a restore chain or an original
    /// group seen once per Apple transaction, leaving repeated ids to the duplicate detectors.
    static func firstRowPerTransaction(_ rows: [LedgerTransaction]) -> [LedgerTransaction] {
        var seen = Set<String>()
        return rows.sorted(by: bookingOrder).filter { seen.insert($0.transactionID).inserted }
    }

    // MARK: - Products and prices

    /// The catalog row for a product in a storefront, and whether it is that storefront's own row
    /// (rather than the default row or another storefront's).
    static func catalogRow(
        _ productID: String, storefront: String?, in context: DetectionContext
    ) -> (product: CatalogProduct, exactStorefront: Bool)? {
        guard let product = context.product(productID, storefront: storefront) else { return nil }
        return (product, product.storefront == storefront)
    }

    /// The catalog price of `quantity` units of a product in a storefront, if the catalog has one.
    static func catalogValue(
        _ productID: String, storefront: String?, quantity: Int, in context: DetectionContext
    ) -> Money? {
        context.product(productID, storefront: storefront)?.price.flatMap { times($0, quantity) }
    }

    /// `unit × quantity`, exact; nil when it overflows the money type.
    static func times(_ unit: Money, _ quantity: Int) -> Money? {
        unit.times(quantity)
    }

    /// What a ledger row is worth: its recorded price × quantity, else Apple's (JWS) unit price ×
    /// quantity, else the catalog price for its product and storefront × quantity.
    ///
    /// - Parameter applePrice: Apple's unit price for the transaction, when evidence states one.
    static func value(
        of row: LedgerTransaction, applePrice: Money?, in context: DetectionContext
    ) -> Money? {
        if let total = row.lineTotal { return total }
        if let applePrice, let total = times(applePrice, row.quantity) { return total }
        return catalogValue(row.productID, storefront: row.storefront, quantity: row.quantity, in: context)
    }

    /// Whether two amounts are the same money (currency codes compared case-insensitively).
    static func same(_ lhs: Money, _ rhs: Money) -> Bool {
        lhs.milliunits == rhs.milliunits && lhs.currency.uppercased() == rhs.currency.uppercased()
    }

    /// How far apart two amounts are (never negative); nil when either is unknown or they are in
    /// different currencies.
    static func difference(_ lhs: Money?, _ rhs: Money?) -> Money? {
        guard let lhs, let rhs, lhs.currency.uppercased() == rhs.currency.uppercased() else { return nil }
        let gap = Money.difference(lhs.milliunits, rhs.milliunits)
        return Money(milliunits: gap < 0 ? Money.difference(0, gap) : gap, currency: lhs.currency.uppercased())
    }

    /// Parses Apple's JWS `type` (`Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`,
    /// `Non-Renewing Subscription`), or the catalog's own spellings.
    static func productType(appleType raw: String) -> ProductType? {
        switch raw.lowercased() {
        case "consumable": return .consumable
        case "non-consumable": return .nonConsumable
        case "auto-renewable subscription", "auto-renewable": return .autoRenewable
        case "non-renewing subscription", "non-renewing": return .nonRenewing
        default: return nil
        }
    }

    // MARK: - Evidence

    /// The bundle id a piece of evidence names: the entry's own, else the whole receipt's.
    static func bundleID(of record: EvidenceRecord) -> String? {
        record.entry.bundleID ?? record.bundleID
    }

    /// Whether evidence names a bundle id that is not one of the app's own (only when the app's
    /// bundle ids are configured).
    static func isForeign(_ record: EvidenceRecord, in context: DetectionContext) -> Bool {
        guard !context.bundleIDs.isEmpty, let bundle = bundleID(of: record) else { return false }
        return !context.bundleIDs.contains(bundle)
    }

    /// Whether evidence may speak about this app's purchase at all: it is for one of the app's
    /// bundle ids, its signature is not known to be bad, and it is not an Apple answer that
    /// rejected the receipt or failed.
    ///
    /// Everything else is reported elsewhere (`BUNDLE_MISMATCH`, `INVALID_RECEIPT`) and ignored
    /// by the transaction detectors.
    static func isUsable(_ record: EvidenceRecord, in context: DetectionContext) -> Bool {
        if isForeign(record, in: context) { return false }
        if record.signature == .invalid || record.signature == .untrusted { return false }
        if record.source == .verifyReceipt, let status = record.appleStatus, ![0, 21007, 21008].contains(status) {
            return false
        }
        return true
    }

    /// Whether evidence proves the purchase happened: Apple's verifyReceipt answered 0, the App
    /// Store Server API returned it, or a receipt whose signature was verified offline says so.
    static func isAuthentic(_ record: EvidenceRecord) -> Bool {
        switch record.source {
        case .verifyReceipt: return record.appleStatus == 0
        case .serverAPI: return true
        case .offline: return record.signature == .verified
        }
    }

    /// Whether evidence is Apple confirming the purchase is valid now: verifyReceipt status 0,
    /// the Server API, or a StoreKit 2 signed transaction verified offline (SPEC §3: that settles
    /// a pending transaction; an app receipt's offline signature does not).
    static func confirmsValidity(_ record: EvidenceRecord) -> Bool {
        switch record.source {
        case .verifyReceipt: return record.appleStatus == 0
        case .serverAPI: return true
        case .offline: return record.receiptFormat == .signedTransaction && record.signature == .verified
        }
    }

    /// The environment evidence establishes in a way that can be trusted, or nil.
    ///
    /// Trusted: Apple's status 21007 (Sandbox) or 21008 (Production); a verifyReceipt answer with
    /// status 0; a Server API answer; an offline receipt or JWS whose signature was verified.
    /// A claim from an unverified offline decode is not trusted.
    static func trustedEnvironment(of record: EvidenceRecord) -> StoreEnvironment? {
        switch record.source {
        case .verifyReceipt:
            switch record.appleStatus {
            case 21007: return .sandbox
            case 21008: return .production
            case 0: return record.effectiveEnvironment
            default: return nil
            }
        case .serverAPI:
            return record.effectiveEnvironment
        case .offline:
            return record.signature == .verified ? record.effectiveEnvironment : nil
        }
    }

    /// Where a piece of evidence came from, in words (`Apple's verifyReceipt answer (status 21007)`).
    static func describe(_ record: EvidenceRecord) -> String {
        let receipt = record.receiptID.map { " for receipt \($0)" } ?? ""
        switch record.source {
        case .verifyReceipt:
            let status = record.appleStatus.map { " (status \($0))" } ?? ""
            return "Apple's verifyReceipt answer\(status)\(receipt)"
        case .serverAPI:
            return "the App Store Server API"
        case .offline:
            let what: String
            switch record.receiptFormat {
            case .signedTransaction: what = "signed transaction"
            case .transactionReceipt: what = "iOS 6 transaction receipt"
            case .appReceipt: what = "app receipt"
            case nil: what = "receipt"
            }
            let trust = record.signature == .verified ? "signature verified" : "signature not verified"
            let name = record.receiptID.map { " \($0)" } ?? ""
            return "the \(what)\(name) (\(trust))"
        }
    }

    // MARK: - Receipts

    /// The transaction id a receipt-level finding is filed under: the first ledger row pointing at
    /// the receipt (by record id), else the first purchase decoded from it, else the receipt id.
    static func transactionID(of receiptCase: ReceiptCase) -> String {
        if let row = receiptCase.records.min(by: { $0.recordID < $1.recordID }) { return row.transactionID }
        if let entry = receiptCase.decoded?.entries.first { return entry.transactionID }
        return receiptCase.receipt.receiptID
    }

    /// Everyone a receipt concerns: its uploader and the users of the rows pointing at it.
    static func userIDs(of receiptCase: ReceiptCase) -> [String] {
        (receiptCase.receipt.userID.map { [$0] } ?? []) + receiptCase.records.map(\.userID)
    }

    /// The revenue the ledger booked on a receipt's rows (rows it counts as revenue).
    static func bookedRevenue(of receiptCase: ReceiptCase, in context: DetectionContext) -> MoneyTally {
        var tally = MoneyTally()
        for row in receiptCase.records.sorted(by: bookingOrder) where ledgerCountsAsRevenue(row) {
            tally.add(value(of: row, applePrice: nil, in: context), for: row.recordID)
        }
        return tally
    }

    // MARK: - Text

    /// `a, b, c`.
    static func list(_ items: [String]) -> String { items.joined(separator: ", ") }

    /// `record r1` or `records r1, r2`.
    static func records(_ rows: [LedgerTransaction]) -> String {
        (rows.count == 1 ? "record " : "records ") + list(rows.map(\.recordID))
    }

    /// `9.99 USD`.
    static func text(_ money: Money) -> String { "\(money.formatted) \(money.currency)" }

    /// UTC ISO 8601 with seconds (`2026-11-20T13:05:00Z`), computed from integers.
    static func timestamp(_ millis: Int64) -> String {
        let c = Timestamp.components(millis)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }

    /// A share in thousandths of a percent as text (`50 %`, `12.5 %`).
    static func percentage(_ thousandths: Int) -> String {
        var text = Money.format(milliunits: Int64(thousandths), decimals: 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " %"
    }

    /// A rough length of time (`45 min`, `5 h`, `3 days`), rounded down.
    static func duration(_ millis: Int64) -> String {
        let minutes = max(0, millis) / 60_000
        if minutes < 120 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours) h" }
        return "\(hours / 24) days"
    }
}

/// What the evidence of one transaction group establishes, worked out once per detector call.
///
/// All evidence that may not speak about this app's purchase (another bundle, a bad signature,
/// an Apple answer rejecting the receipt) is dropped first; see ``DetectionSupport/isUsable(_:in:)``.
public final class TransactionFacts: Sendable {
    let group: TransactionGroup
    let context: DetectionContext
    /// Evidence that may speak about the purchase, in the group's order.
    let usable: [EvidenceRecord]
    /// The environment the evidence puts the purchase in.
    let environment: EnvironmentClaim
    /// Whether Apple refunded or revoked it, decided by the latest refund-bearing evidence.
    let refund: RefundState
    /// Whether Apple confirmed the purchase as valid (see ``DetectionSupport/confirmsValidity(_:)``).
    let confirmedByApple: Bool
    /// Apple's unit price for the transaction (JWS / Server API `price`), trusted sources first.
    let applePrice: Money?

    init(_ group: TransactionGroup, in context: DetectionContext) {
        self.group = group
        self.context = context
        let usable = group.evidence.filter { DetectionSupport.isUsable($0, in: context) }
        self.usable = usable
        self.environment = EnvironmentClaim(usable)
        self.refund = RefundState(usable.filter(DetectionSupport.isAuthentic))
        self.confirmedByApple = usable.contains(where: DetectionSupport.confirmsValidity)
        self.applePrice = TransactionFacts.preferred(usable) { $0.entry.price }.first
    }

    /// The distinct values a field takes in the most trustworthy evidence that states it.
    ///
    /// Authentic evidence if any states the field, else any usable evidence; in evidence order.
    static func preferred<T: Hashable>(_ records: [EvidenceRecord], _ field: (EvidenceRecord) -> T?) -> [T] {
        func distinct(_ rows: [EvidenceRecord]) -> [T] {
            var seen = Set<T>()
            return rows.compactMap(field).filter { seen.insert($0).inserted }
        }
        let trusted = distinct(records.filter(DetectionSupport.isAuthentic))
        return trusted.isEmpty ? distinct(records) : trusted
    }

    /// The environment the purchase really happened in: what the evidence says, else what the
    /// ledger says.
    func effectiveEnvironment(of row: LedgerTransaction) -> StoreEnvironment {
        switch environment {
        case .production: return .production
        case .test(let environment, _): return environment
        case .unknown: return row.environment
        }
    }

    /// Whether the row is a real App Store purchase: Production by the evidence, else by the ledger.
    ///
    /// Test purchases are never money at stake.
    func isRealPurchase(_ row: LedgerTransaction) -> Bool {
        effectiveEnvironment(of: row).isProduction
    }

    /// Whether the row was credited to its user: a real purchase the backend did not reject as
    /// `invalid`.
    func isCredited(_ row: LedgerTransaction) -> Bool {
        row.verificationStatus != .invalid && isRealPurchase(row)
    }

    /// Whether the row is revenue in the ledger and really is revenue: the ledger counts it
    /// (Production, not invalid) and no evidence says it was a test purchase.
    func standsAsRevenue(_ row: LedgerTransaction) -> Bool {
        DetectionSupport.ledgerCountsAsRevenue(row) && isRealPurchase(row)
    }

    /// What the row is worth (see ``DetectionSupport/value(of:applePrice:in:)``).
    func value(of row: LedgerTransaction) -> Money? {
        DetectionSupport.value(of: row, applePrice: applePrice, in: context)
    }
}

/// The environment the usable evidence of one transaction puts it in.
enum EnvironmentClaim {
    /// Trusted evidence says Production (or Apple confirmed an iOS 6 receipt that does not say
    /// Sandbox) and no trusted evidence says otherwise.
    case production(EvidenceRecord)
    /// Evidence says Sandbox, Xcode or LocalTesting, and no trusted evidence says Production.
    /// (Any usable evidence may say so: a receipt that itself says Sandbox is not revenue.)
    case test(StoreEnvironment, EvidenceRecord)
    /// No usable evidence states an environment, only an untrusted one claims Production, or
    /// trusted evidence contradicts itself: the ledger's word stands.
    case unknown

    init(_ usable: [EvidenceRecord]) {
        let trustedProduction =
            usable.first { DetectionSupport.trustedEnvironment(of: $0) == .production }
            ?? EnvironmentClaim.confirmedIOS6Production(usable)
        let trustedTest = usable.first {
            DetectionSupport.isTestEnvironment(DetectionSupport.trustedEnvironment(of: $0))
        }
        let anyTest = usable.first { DetectionSupport.isTestEnvironment($0.effectiveEnvironment) }
        switch (trustedProduction, trustedTest, anyTest) {
        case (.some, .some, _):
            self = .unknown
        case (.some(let record), nil, _):
            self = .production(record)
        case (nil, .some(let record), _), (nil, nil, .some(let record)):
            self = .test(
                DetectionSupport.trustedEnvironment(of: record) ?? record.effectiveEnvironment ?? .sandbox, record)
        case (nil, nil, nil):
            self = .unknown
        }
    }
}

extension EnvironmentClaim {
    /// Apple's status-0 answer for an iOS 6 transaction receipt that carries no `environment`
    /// key, when Apple's answer does not state one either.
    ///
    /// iOS 6 receipts name their environment only when it is Sandbox, and Apple's production
    /// endpoint answers 21007 for a Sandbox receipt, so the two together confirm Production.
    static func confirmedIOS6Production(_ usable: [EvidenceRecord]) -> EvidenceRecord? {
        let silentReceipt = usable.contains {
            $0.source == .offline && $0.receiptFormat == .transactionReceipt && $0.effectiveEnvironment == nil
        }
        guard silentReceipt else { return nil }
        return usable.first {
            $0.source == .verifyReceipt && $0.appleStatus == 0
                && ($0.effectiveEnvironment == nil || $0.effectiveEnvironment == .production)
        }
    }
}

/// Whether Apple refunded or revoked a transaction.
///
/// Decided by the latest (by `recordedAt`, then evidence order) authentic evidence that speaks
/// about refunds: an entry with a cancellation/revocation date or type, or a `REFUND_REVERSED`
/// marker. Evidence that is silent about refunds (an old receipt uploaded again) changes nothing.
enum RefundState {
    case notRefunded
    /// Refunded: the whole price, or a share in thousandths of a percent (nil: share not stated).
    case refunded(Refund, EvidenceRecord)
    /// `FAMILY_REVOKE`: a family member lost access; nobody got money back.
    case familyRevoked(EvidenceRecord)

    /// How much of the price Apple gave back.
    enum Refund: Equatable {
        case full
        /// `revocationPercentage`, thousandths of a percent (50 000 = 50 %); nil when not stated.
        case prorated(Int?)
    }

    init(_ authentic: [EvidenceRecord]) {
        var latest: (record: EvidenceRecord, state: RefundState)?
        for record in authentic {
            guard let state = RefundState.classify(record) else { continue }
            if let current = latest, current.record.recordedAt > record.recordedAt { continue }
            latest = (record, state)
        }
        self = latest?.state ?? .notRefunded
    }

    /// What one piece of evidence says about refunds: nil when it is silent, `.notRefunded` for
    /// a `REFUND_REVERSED`.
    private static func classify(_ record: EvidenceRecord) -> RefundState? {
        let entry = record.entry
        let type = entry.revocationType?.uppercased()
        if type == "REFUND_REVERSED" || entry.cancellationReason?.uppercased() == "REFUND_REVERSED" {
            return .notRefunded
        }
        if type == "FAMILY_REVOKE" { return .familyRevoked(record) }
        if type == "REFUND_PRORATED" { return .refunded(.prorated(entry.revocationPercentage), record) }
        if entry.cancellationDate != nil || type == "REFUND_FULL" { return .refunded(.full, record) }
        return nil
    }

    /// Whether the customer no longer owns the purchase (refunded or revoked).
    var isCancelled: Bool {
        if case .notRefunded = self { return false }
        return true
    }

    /// The amount Apple gave back out of `value`; nil when the prorated share is not stated.
    func refundedAmount(of value: Money) -> Money? {
        guard case .refunded(let refund, _) = self else { return nil }
        switch refund {
        case .full: return value
        case .prorated(let share?): return value.scaled(byPPM: Int64(share) * 10)
        case .prorated(nil): return nil
        }
    }
}

/// Sums amounts per currency and remembers rows whose value is unknown.
///
/// ``amount`` is only given when it is complete: one currency and every value known. A partial
/// sum would understate the money at stake, so the finding leaves it empty and the detail says why.
struct MoneyTally {
    private var totals: [String: Int64] = [:]
    private var currencies: [String] = []
    private(set) var unknown: [String] = []
    private(set) var count = 0

    /// Adds one row's value; `nil` marks the row's value as unknown.
    mutating func add(_ money: Money?, for recordID: String) {
        count += 1
        guard let money else {
            unknown.append(recordID)
            return
        }
        if totals[money.currency] == nil { currencies.append(money.currency) }
        totals[money.currency] = Money.sum(totals[money.currency] ?? 0, money.milliunits)
    }

    /// The total, when it is in one currency and every value is known.
    var amount: Money? {
        guard unknown.isEmpty, currencies.count == 1, let code = currencies.first, let milli = totals[code] else {
            return nil
        }
        return Money(milliunits: milli, currency: code)
    }

    /// `9.99 USD`, `9.99 USD + 1200 JPY`, with `(no price for r3)` when some are unknown.
    var text: String {
        let known = currencies.compactMap { code in
            totals[code].map { DetectionSupport.text(Money(milliunits: $0, currency: code)) }
        }
        let missing = unknown.isEmpty ? "" : " (no price for \(DetectionSupport.list(unknown)))"
        if known.isEmpty { return "an unknown amount" + missing }
        return known.joined(separator: " + ") + missing
    }
}

extension Finding {
    /// The one-line `detail` of a finding; each detector builds its own in a `fileprivate`
    /// extension next to its rule.
    struct Message: Sendable, Hashable, CustomStringConvertible {
        /// The line a person reads.
        var text: String

        init(_ text: String) { self.text = text }

        var description: String { text }
    }

    /// A finding whose detail is a ``Message``.
    init(
        _ code: FindingCode, transactionID: String, originalTransactionID: String? = nil,
        userIDs: [String], productID: String? = nil, environment: StoreEnvironment? = nil,
        amount: Money? = nil, message: Message, recordIDs: [String] = [], receiptID: String? = nil
    ) {
        self.init(
            code: code, transactionID: transactionID, originalTransactionID: originalTransactionID,
            userIDs: userIDs, productID: productID, environment: environment, amount: amount,
            detail: message.text, recordIDs: recordIDs, receiptID: receiptID)
    }

    /// A finding about an uploaded receipt that ledger rows rely on: filed under the receipt's
    /// transaction (see ``DetectionSupport/transactionID(of:)``), naming everyone involved, with
    /// the revenue booked on those rows at stake. `message` is given the rows in booking order.
    init(
        _ code: FindingCode, receipt: ReceiptCase, environment: StoreEnvironment?, in context: DetectionContext,
        message: (_ rows: [LedgerTransaction], _ booked: MoneyTally) -> Message
    ) {
        let booked = DetectionSupport.bookedRevenue(of: receipt, in: context)
        let rows = receipt.records.sorted(by: DetectionSupport.bookingOrder)
        self.init(
            code, transactionID: DetectionSupport.transactionID(of: receipt),
            originalTransactionID: rows.first?.originalTransactionID, userIDs: DetectionSupport.userIDs(of: receipt),
            productID: rows.first?.productID, environment: environment, amount: booked.amount,
            message: message(rows, booked), recordIDs: rows.map(\.recordID), receiptID: receipt.receipt.receiptID)
    }
}
