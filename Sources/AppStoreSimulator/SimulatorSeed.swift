import Crypto
import Foundation
import IAPRecon

/// The simulator's truth: purchases, receipts `verifyReceipt` knows, and the trusted API key.
///
/// Read from a JSON file (``load(from:)``) or built in code.
///
/// Timestamps are integer epoch milliseconds or ISO 8601 strings with an offset.
public struct SimulatorSeed: Codable, Sendable, Hashable {
    /// The app's bundle id: the default for transactions and receipts, and the JWT `bid` the
    /// Server API expects.
    public var bundleId: String
    /// `appAppleId` in history answers.
    public var appAppleId: Int64?
    /// When set, `verifyReceipt` answers 21004 unless `password` equals it.
    public var sharedSecret: String?
    /// Transactions per history or refund-history page (default 20).
    public var historyPageSize: Int?
    /// The key the Server API accepts; without one every Server API call is answered 401.
    public var apiKey: SimulatorAPIKey?
    /// Every purchase the simulated App Store knows.
    public var transactions: [SimulatorTransaction]
    /// Receipts `verifyReceipt` knows, keyed by the SHA-256 of their data.
    public var receipts: [SimulatorReceipt]
    /// How auto-renewable subscriptions renew, by original transaction id (auto-renew turned off, billing retry,
    /// grace period); a subscription not listed renews as its transactions show, and lapses when they end.
    public var subscriptions: [SimulatorSubscription]?
    /// The moment Get All Subscription Statuses answers as of (epoch ms); nil: the wall clock.
    ///
    /// A generated store fixed at an as-of (the demo) sets it, so the statuses stay those of its as-of however long
    /// after it the simulator runs. The other routes, and the bearer token's check, keep the wall clock.
    public var subscriptionStatusesAsOf: Int64?

    /// Creates a seed.
    public init(
        bundleId: String, appAppleId: Int64? = nil, sharedSecret: String? = nil, historyPageSize: Int? = nil,
        apiKey: SimulatorAPIKey? = nil, transactions: [SimulatorTransaction] = [], receipts: [SimulatorReceipt] = [],
        subscriptions: [SimulatorSubscription]? = nil, subscriptionStatusesAsOf: Int64? = nil
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.sharedSecret = sharedSecret
        self.historyPageSize = historyPageSize
        self.apiKey = apiKey
        self.transactions = transactions
        self.receipts = receipts
        self.subscriptions = subscriptions
        self.subscriptionStatusesAsOf = subscriptionStatusesAsOf
    }

    /// Reads a seed file.
    ///
    /// - Throws: ``SimulatorError`` naming the file and the problem.
    public static func load(from url: URL) throws(SimulatorError) -> SimulatorSeed {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .seedFile(path: url.path, reason: "cannot be read")
        }
        do {
            return try JSONDecoder().decode(SimulatorSeed.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            throw .seedFile(path: url.path, reason: "missing key `\(path)`")
        } catch let DecodingError.dataCorrupted(context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .seedFile(path: url.path, reason: "bad value at `\(path)`: \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .seedFile(path: url.path, reason: "wrong type at `\(path)`")
        } catch {
            throw .seedFile(path: url.path, reason: "is not valid JSON")
        }
    }

    /// The seed as pretty, key-sorted JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// The App Store Server API key the simulator accepts: bearer tokens must be signed by its
/// private key and name this key id and issuer.
public struct SimulatorAPIKey: Codable, Sendable, Hashable {
    /// Expected `kid`.
    public var keyId: String
    /// Expected `iss`.
    public var issuerId: String
    /// The P-256 public key, PEM (`-----BEGIN PUBLIC KEY-----`).
    public var publicKeyPEM: String

    /// Creates a key description.
    public init(keyId: String, issuerId: String, publicKeyPEM: String) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.publicKeyPEM = publicKeyPEM
    }

    /// A fresh P-256 key pair for tests and the demo: the `.p8` PEM for the client, and the
    /// public half for the simulator.
    public static func generate(keyId: String = "SIMKEY0001", issuerId: String = "57246542-96fe-1a63-e053-0824d011072a")
        -> (privateKeyPEM: String, key: SimulatorAPIKey)
    {
        let key = P256.Signing.PrivateKey()
        return (
            key.pemRepresentation,
            SimulatorAPIKey(keyId: keyId, issuerId: issuerId, publicKeyPEM: key.publicKey.pemRepresentation)
        )
    }
}

/// One purchase in the simulator's truth, with Apple's field names.
public struct SimulatorTransaction: Codable, Sendable, Hashable {
    /// `transactionId`.
    public var transactionId: String
    /// `originalTransactionId`; defaults to `transactionId`.
    public var originalTransactionId: String?
    /// `productId`.
    public var productId: String
    /// `bundleId`; defaults to the seed's.
    public var bundleId: String?
    /// `Production` or `Sandbox`: which environment knows it.
    public var environment: String
    /// `purchaseDate`, epoch ms.
    public var purchaseDate: Int64
    /// `originalPurchaseDate`, epoch ms; defaults to the purchase date.
    public var originalPurchaseDate: Int64?
    /// `expiresDate`, epoch ms (subscriptions).
    public var expiresDate: Int64?
    /// `quantity`; default 1.
    public var quantity: Int?
    /// Apple's `type` (`Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`,
    /// `Non-Renewing Subscription`); the ledger spellings (`consumable`, `auto-renewable`...) work too.
    public var type: String
    /// `price` in milliunits.
    public var price: Int64?
    /// `currency` (ISO 4217).
    public var currency: String?
    /// `storefront` (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// `revocationDate` (refunded or revoked at), epoch ms.
    public var revocationDate: Int64?
    /// `revocationReason` (0 other, 1 app issue).
    public var revocationReason: Int?
    /// `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`).
    public var revocationType: String?
    /// `revocationPercentage` in thousandths of a percent.
    public var revocationPercentage: Int?
    /// The customer's order id (Look Up Order ID).
    public var orderId: String?
    /// `webOrderLineItemId`.
    public var webOrderLineItemId: String?
    /// `appAccountToken`.
    public var appAccountToken: String?
    /// When Apple reversed the refund of ``revocationDate`` (a `REFUND_REVERSED` notification), epoch ms.
    ///
    /// The transaction then reads as not revoked everywhere but in the `REFUND` notification itself.
    public var refundReversedDate: Int64?
    /// `inAppOwnershipType`: `PURCHASED` (the default) or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// The transaction this one upgraded, in the same subscription group: this purchase is a
    /// `DID_CHANGE_RENEWAL_PREF`/`UPGRADE` (`transactionReason` `PURCHASE`), and that one reads
    /// `isUpgraded` (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    public var upgradedFromTransactionId: String?
    /// `offerType`: `1` introductory, `2` promotional, `3` offer code, `4` win-back; nil: no offer.
    public var offerType: Int?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// When the customer asked Apple for a refund and Apple asked the developer for consumption information (a
    /// `CONSUMPTION_REQUEST` notification), epoch ms.
    public var consumptionRequestDate: Int64? = nil
    /// `appTransactionId`: the Apple Account's id in the app, on every transaction it made.
    public var appTransactionId: String? = nil

    /// Creates a transaction.
    public init(
        transactionId: String, originalTransactionId: String? = nil, productId: String, bundleId: String? = nil,
        environment: String = "Production", purchaseDate: Int64, originalPurchaseDate: Int64? = nil,
        expiresDate: Int64? = nil, quantity: Int? = nil, type: String = "Consumable", price: Int64? = nil,
        currency: String? = nil, storefront: String? = nil, revocationDate: Int64? = nil,
        revocationReason: Int? = nil, revocationType: String? = nil, revocationPercentage: Int? = nil,
        orderId: String? = nil, webOrderLineItemId: String? = nil, appAccountToken: String? = nil,
        refundReversedDate: Int64? = nil, inAppOwnershipType: String? = nil,
        upgradedFromTransactionId: String? = nil, offerType: Int? = nil, offerDiscountType: String? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.bundleId = bundleId
        self.environment = environment
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.price = price
        self.currency = currency
        self.storefront = storefront
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.orderId = orderId
        self.webOrderLineItemId = webOrderLineItemId
        self.appAccountToken = appAccountToken
        self.refundReversedDate = refundReversedDate
        self.inAppOwnershipType = inAppOwnershipType
        self.upgradedFromTransactionId = upgradedFromTransactionId
        self.offerType = offerType
        self.offerDiscountType = offerDiscountType
    }

    private enum CodingKeys: String, CodingKey {
        case transactionId, originalTransactionId, productId, bundleId, environment, purchaseDate
        case originalPurchaseDate, expiresDate, quantity, type, price, currency, storefront, revocationDate
        case revocationReason, revocationType, revocationPercentage, orderId, webOrderLineItemId, appAccountToken
        case refundReversedDate, inAppOwnershipType, upgradedFromTransactionId, offerType, offerDiscountType
        case consumptionRequestDate, appTransactionId
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.decodeIDString(.transactionId)
        originalTransactionId = try c.decodeIDStringIfPresent(.originalTransactionId)
        productId = try c.decode(String.self, forKey: .productId)
        bundleId = try c.decodeIfPresent(String.self, forKey: .bundleId)
        environment = try c.decodeIfPresent(String.self, forKey: .environment) ?? "Production"
        purchaseDate = try c.decodeTimestamp(.purchaseDate)
        originalPurchaseDate = try c.decodeTimestampIfPresent(.originalPurchaseDate)
        expiresDate = try c.decodeTimestampIfPresent(.expiresDate)
        quantity = try c.decodeIfPresent(Int.self, forKey: .quantity)
        type = try c.decodeIfPresent(String.self, forKey: .type) ?? "Consumable"
        price = try c.decodeIfPresent(Int64.self, forKey: .price)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        storefront = try c.decodeIfPresent(String.self, forKey: .storefront)
        revocationDate = try c.decodeTimestampIfPresent(.revocationDate)
        revocationReason = try c.decodeIfPresent(Int.self, forKey: .revocationReason)
        revocationType = try c.decodeIfPresent(String.self, forKey: .revocationType)
        revocationPercentage = try c.decodeIfPresent(Int.self, forKey: .revocationPercentage)
        orderId = try c.decodeIfPresent(String.self, forKey: .orderId)
        webOrderLineItemId = try c.decodeIDStringIfPresent(.webOrderLineItemId)
        appAccountToken = try c.decodeIfPresent(String.self, forKey: .appAccountToken)
        refundReversedDate = try c.decodeTimestampIfPresent(.refundReversedDate)
        inAppOwnershipType = try c.decodeIfPresent(String.self, forKey: .inAppOwnershipType)
        upgradedFromTransactionId = try c.decodeIDStringIfPresent(.upgradedFromTransactionId)
        offerType = try c.decodeIfPresent(Int.self, forKey: .offerType)
        offerDiscountType = try c.decodeIfPresent(String.self, forKey: .offerDiscountType)
        consumptionRequestDate = try c.decodeTimestampIfPresent(.consumptionRequestDate)
        appTransactionId = try c.decodeIfPresent(String.self, forKey: .appTransactionId)
    }

    /// The original transaction id, defaulted.
    public var originalID: String { originalTransactionId ?? transactionId }

    /// The environment, typed.
    public var storeEnvironment: StoreEnvironment { StoreEnvironment(raw: environment) }

    /// Apple's spelling of ``type``.
    public var appleType: String {
        switch type.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "consumable": return "Consumable"
        case "non-consumable", "nonconsumable": return "Non-Consumable"
        case "auto-renewable", "auto-renewable subscription", "autorenewable": return "Auto-Renewable Subscription"
        case "non-renewing", "non-renewing subscription", "nonrenewing": return "Non-Renewing Subscription"
        default: return type
        }
    }

    /// Whether it is an auto-renewable subscription (it then appears in `latest_receipt_info`).
    public var isAutoRenewable: Bool { appleType == "Auto-Renewable Subscription" }

    /// Whether the customer paid nothing: a `FREE_TRIAL` offer, or an offer priced at 0 (verifyReceipt
    /// `is_trial_period`).
    public var isFreeTrial: Bool {
        offerDiscountType?.uppercased() == "FREE_TRIAL" || (offerType != nil && price == 0)
    }
}

/// A receipt `verifyReceipt` knows.
public struct SimulatorReceipt: Codable, Sendable, Hashable {
    /// Lower-case hex SHA-256 of the `receipt-data` string (its UTF-8 bytes).
    public var sha256: String?
    /// The `receipt-data` itself, as an alternative to ``sha256``.
    public var data: String?
    /// `Production` or `Sandbox`: the environment the receipt belongs to.
    public var environment: String
    /// `bundle_id`; defaults to the seed's.
    public var bundleId: String?
    /// The transactions in the receipt (`in_app`), ids into the seed's transactions.
    public var transactionIds: [String]

    /// Creates a receipt entry.
    public init(
        sha256: String? = nil, data: String? = nil, environment: String = "Production", bundleId: String? = nil,
        transactionIds: [String]
    ) {
        self.sha256 = sha256
        self.data = data
        self.environment = environment
        self.bundleId = bundleId
        self.transactionIds = transactionIds
    }

    /// The lookup key: ``sha256`` lower-cased, or the hash of ``data``.
    public var key: String? {
        if let sha256 { return sha256.lowercased() }
        if let data { return SimulatorReceipt.hash(data) }
        return nil
    }

    /// Lower-case hex SHA-256 of a `receipt-data` string.
    public static func hash(_ receiptData: String) -> String {
        SHA256.hash(data: Data(receiptData.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

extension KeyedDecodingContainer {
    /// A timestamp given as epoch milliseconds or an ISO 8601 string.
    func decodeTimestamp(_ key: Key) throws -> Int64 {
        if let millis = try? decode(Int64.self, forKey: key) { return millis }
        let text = try decode(String.self, forKey: key)
        if let millis = Int64(text) { return millis }
        guard let millis = parseISO8601Millis(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(text)' is neither epoch milliseconds nor ISO 8601")
        }
        return millis
    }

    func decodeTimestampIfPresent(_ key: Key) throws -> Int64? {
        guard contains(key), !((try? decodeNil(forKey: key)) ?? false) else { return nil }
        return try decodeTimestamp(key)
    }

    /// An id given as a string or a number.
    func decodeIDString(_ key: Key) throws -> String {
        if let number = try? decode(Int64.self, forKey: key) { return String(number) }
        return try decode(String.self, forKey: key)
    }

    func decodeIDStringIfPresent(_ key: Key) throws -> String? {
        guard contains(key), !((try? decodeNil(forKey: key)) ?? false) else { return nil }
        return try decodeIDString(key)
    }
}

/// Epoch milliseconds of an ISO 8601 timestamp with an offset (fractional seconds allowed).
func parseISO8601Millis(_ text: String) -> Int64? {
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    guard let date = plain.date(from: text) ?? fractional.date(from: text) else { return nil }
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
}
