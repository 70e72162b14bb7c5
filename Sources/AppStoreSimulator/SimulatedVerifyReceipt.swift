import Foundation
import IAPRecon

/// `POST /verifyReceipt` with Apple's semantics, answered from the seed.
///
/// Receipt-data the seed lists (by SHA-256) answers as an app receipt: `receipt.in_app`, plus
/// `latest_receipt_info` for auto-renewable subscriptions. Other receipt-data that base64-decodes
/// to an iOS 6 receipt with `"transaction-id" = "N"` (directly or inside `purchase-info`)
/// answers iOS 6 style from seed transaction N (21003 when N is unknown). Anything else is
/// 21002. A sandbox receipt at production is 21007, a production receipt at sandbox 21008, a
/// wrong or missing password when the seed has a shared secret 21004.
enum SimulatedVerifyReceipt {
    static func answer(store: SimulatorStore, endpoint: StoreEnvironment, body: Data, now: Date) -> SimulatorReply {
        guard let request = try? JSONDecoder().decode(VerifyRequest.self, from: body) else {
            return status(21_000)
        }
        guard let receiptData = request.receiptData, !receiptData.isEmpty else {
            return status(21_002)
        }
        let password = request.password
        let excludeOld = request.excludeOldTransactions ?? false

        if let receipt = store.receipts[SimulatorReceipt.hash(receiptData)] {
            let environment = StoreEnvironment(raw: receipt.environment)
            if let redirect = environmentStatus(receipt: environment, endpoint: endpoint) { return status(redirect) }
            if let secret = store.seed.sharedSecret, password != secret { return status(21_004) }
            return appReceipt(
                store: store, receipt: receipt, environment: environment, excludeOld: excludeOld, now: now)
        }
        guard let transactionID = iOS6TransactionID(receiptData) else { return status(21_002) }
        guard let transaction = store.transactions[transactionID] else { return status(21_003) }
        if let redirect = environmentStatus(receipt: transaction.storeEnvironment, endpoint: endpoint) {
            return status(redirect)
        }
        if let secret = store.seed.sharedSecret, password != secret { return status(21_004) }
        var receipt = entry(transaction, store: store, at: millis(now))
        receipt["bid"] = .string(transaction.bundleId ?? store.seed.bundleId)
        receipt["bvrs"] = "1.0"
        return SimulatorReply.json(200, ["status": 0, "receipt": .object(receipt)])
    }

    /// The request body; fields of the wrong type read as absent.
    struct VerifyRequest: Decodable {
        var receiptData: String?
        var password: String?
        var excludeOldTransactions: Bool?

        enum CodingKeys: String, CodingKey {
            case receiptData = "receipt-data"
            case password
            case excludeOldTransactions = "exclude-old-transactions"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            receiptData = try? container.decodeIfPresent(String.self, forKey: .receiptData)
            password = try? container.decodeIfPresent(String.self, forKey: .password)
            excludeOldTransactions = try? container.decodeIfPresent(Bool.self, forKey: .excludeOldTransactions)
        }
    }

    static func status(_ code: Int, isRetryable: Bool? = nil) -> SimulatorReply {
        var object: [String: SimJSON] = ["status": .integer(Int64(code))]
        if let isRetryable { object["is-retryable"] = .bool(isRetryable) }
        return SimulatorReply.json(200, object)
    }

    private static func environmentStatus(receipt: StoreEnvironment, endpoint: StoreEnvironment) -> Int? {
        if receipt == .sandbox, endpoint == .production { return 21_007 }
        if receipt == .production, endpoint == .sandbox { return 21_008 }
        return nil
    }

    private static func appReceipt(
        store: SimulatorStore, receipt: SimulatorReceipt, environment: StoreEnvironment, excludeOld: Bool, now: Date
    ) -> SimulatorReply {
        // An answer made now knows nothing bought later.
        let at = millis(now)
        let purchases = receipt.transactionIds.compactMap { store.transactions[$0] }.filter { $0.purchaseDate <= at }
        let created = purchases.map(\.purchaseDate).max() ?? at
        let firstPurchase = purchases.map { $0.originalPurchaseDate ?? $0.purchaseDate }.min() ?? created
        let seedApp = SimJSON.integer(store.seed.appAppleId ?? 0)
        let receiptJSON: [String: SimJSON] = [
            "receipt_type": .string(environment == .production ? "Production" : "ProductionSandbox"),
            "adam_id": seedApp,
            "app_item_id": seedApp,
            "bundle_id": .string(receipt.bundleId ?? store.seed.bundleId),
            "application_version": "1",
            "original_application_version": "1.0",
            "receipt_creation_date_ms": .string(String(created)),
            "receipt_creation_date": .string(appleDate(created)),
            "request_date_ms": .string(String(Int64(now.timeIntervalSince1970 * 1000))),
            "original_purchase_date_ms": .string(String(firstPurchase)),
            "in_app": .array(purchases.map { .object(entry($0, store: store, at: at)) }),
        ]
        var body: [String: SimJSON] = [
            "status": 0,
            "environment": .string(environment.rawValue),
            "receipt": .object(receiptJSON),
        ]
        let subscriptionFamilies = Set(purchases.filter(\.isAutoRenewable).map(\.originalID))
        if !subscriptionFamilies.isEmpty {
            var latest: [SimulatorTransaction] = []
            for family in subscriptionFamilies.sorted() {
                let members = (store.families[family] ?? []).filter {
                    $0.environment == receipt.environment && $0.purchaseDate <= at
                }
                if excludeOld {
                    if let last = members.last { latest.append(last) }
                } else {
                    latest += members
                }
            }
            // Apple lists the newest first.
            body["latest_receipt_info"] = .array(
                latest.sorted { $0.purchaseDate > $1.purchaseDate }.map { .object(entry($0, store: store, at: at)) })
        }
        return SimulatorReply.json(200, body)
    }

    /// Epoch milliseconds of `date`.
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// One `in_app` / `latest_receipt_info` object as Apple answers at `at` (epoch ms), with Apple's string-typed
    /// fields (https://developer.apple.com/documentation/appstorereceipts/responsebody/latest_receipt_info).
    ///
    /// It shows only what had happened by `at`: a refund or revocation (`cancellation_date`, `cancellation_reason`)
    /// once made and until Apple reversed it; an upgrade (`is_upgraded` `"true"`, with the upgrade's time as
    /// `cancellation_date`) once the customer upgraded. `is_trial_period`, `is_in_intro_offer_period` (for
    /// subscriptions) and `in_app_ownership_type` as the seed states them.
    static func entry(_ transaction: SimulatorTransaction, store: SimulatorStore, at: Int64) -> [String: SimJSON] {
        let original = transaction.originalPurchaseDate ?? transaction.purchaseDate
        var entry: [String: SimJSON] = [
            "quantity": .string(String(transaction.quantity ?? 1)),
            "product_id": .string(transaction.productId),
            "transaction_id": .string(transaction.transactionId),
            "original_transaction_id": .string(transaction.originalID),
            "purchase_date": .string(appleDate(transaction.purchaseDate)),
            "purchase_date_ms": .string(String(transaction.purchaseDate)),
            "original_purchase_date": .string(appleDate(original)),
            "original_purchase_date_ms": .string(String(original)),
            "is_trial_period": transaction.isFreeTrial ? "true" : "false",
            "in_app_ownership_type": .string(transaction.inAppOwnershipType ?? "PURCHASED"),
        ]
        if transaction.isAutoRenewable {
            let intro = transaction.offerType == 1 && !transaction.isFreeTrial
            entry["is_in_intro_offer_period"] = intro ? "true" : "false"
        }
        if let expires = transaction.expiresDate {
            entry["expires_date"] = .string(appleDate(expires))
            entry["expires_date_ms"] = .string(String(expires))
        }
        if let webOrder = transaction.webOrderLineItemId { entry["web_order_line_item_id"] = .string(webOrder) }
        let reversed = transaction.refundReversedDate.map { $0 <= at } ?? false
        let upgraded = store.upgraded[transaction.transactionId].flatMap { $0 <= at ? $0 : nil }
        if let revoked = transaction.revocationDate, revoked <= at, !reversed {
            entry["cancellation_date"] = .string(appleDate(revoked))
            entry["cancellation_date_ms"] = .string(String(revoked))
            entry["cancellation_reason"] = .string(String(transaction.revocationReason ?? 0))
        } else if let upgraded {
            // "For an auto-renewable subscription plan that was upgraded, the time and date of the upgrade".
            entry["cancellation_date"] = .string(appleDate(upgraded))
            entry["cancellation_date_ms"] = .string(String(upgraded))
        }
        if upgraded != nil { entry["is_upgraded"] = "true" }
        return entry
    }

    /// Apple's `2023-10-19 01:45:36 Etc/GMT` spelling (computed arithmetically: a `DateFormatter`
    /// per call would dominate the simulator's cost per request).
    static func appleDate(_ millis: Int64) -> String {
        let c = Timestamp.components(millis)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) Etc/GMT"
    }

    /// The `transaction-id` of an iOS 6 receipt, read from its old-style plist text.
    static func iOS6TransactionID(_ receiptData: String) -> String? {
        guard let outer = base64Text(receiptData) else { return nil }
        if let id = plistString("transaction-id", in: outer) { return id }
        guard let info = plistString("purchase-info", in: outer), let inner = base64Text(info) else { return nil }
        return plistString("transaction-id", in: inner)
    }

    private static func base64Text(_ text: String) -> String? {
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !data.isEmpty else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }

    /// The value of `"key" = "value";` in old-style plist text.
    static func plistString(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: "\"\(key)\"") else { return nil }
        var rest = text[range.upperBound...].drop(while: { $0.isWhitespace })
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop(while: { $0.isWhitespace })
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let value = String(rest[..<end])
        return value.isEmpty ? nil : value
    }
}
