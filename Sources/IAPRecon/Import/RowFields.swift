/// One input row's values by field name, whatever the file format, with typed accessors that
/// throw a ``RowRejection`` naming the field.
struct RowFields {
    private let names: [String: Int]
    private let values: [String?]

    /// A row whose `values[i]` belongs to field `columns[i]`; empty strings count as absent.
    init(columns: [String: Int], values: [String?]) {
        names = columns
        self.values = values
    }

    /// The raw value, nil when absent or empty.
    func string(_ field: String) -> String? {
        guard let index = names[field], index < values.count, let value = values[index], !value.isEmpty else {
            return nil
        }
        // Fast path: most values carry no surrounding blanks.
        if let first = value.utf8.first, let last = value.utf8.last, first != 0x20, first != 0x09, last != 0x20,
            last != 0x09
        {
            return value
        }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    func required(_ field: String) throws(RowRejection) -> String {
        guard let value = string(field) else { throw RowRejection("missing required field '\(field)'") }
        return value
    }

    func timestamp(_ field: String) throws(RowRejection) -> Int64? {
        guard let text = string(field) else { return nil }
        guard let millis = Timestamp.parse(text) else {
            throw RowRejection(
                "bad timestamp in '\(field)': '\(text.prefix(40))' (expected ISO 8601 with offset or epoch milliseconds)")
        }
        return millis
    }

    func requiredTimestamp(_ field: String) throws(RowRejection) -> Int64 {
        _ = try required(field)
        return try timestamp(field) ?? 0
    }

    func positiveInt(_ field: String) throws(RowRejection) -> Int? {
        guard let text = string(field) else { return nil }
        guard let value = Int(text), value > 0, value <= 1_000_000 else {
            throw RowRejection("bad number in '\(field)': '\(text.prefix(40))' (expected a whole number ≥ 1)")
        }
        return value
    }

    func environment(_ field: String) throws(RowRejection) -> StoreEnvironment? {
        guard let text = string(field) else { return nil }
        switch text.lowercased() {
        case "production": return .production
        case "sandbox": return .sandbox
        default:
            throw RowRejection("bad value in '\(field)': '\(text.prefix(40))' (expected Production or Sandbox)")
        }
    }

    func oneOf<E: RawRepresentable & CaseIterable>(_ field: String, _ type: E.Type) throws(RowRejection) -> E?
    where E.RawValue == String {
        guard let text = string(field) else { return nil }
        if let value = E(rawValue: text) ?? E(rawValue: text.lowercased()) { return value }
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw RowRejection("bad value in '\(field)': '\(text.prefix(40))' (expected one of \(allowed))")
    }

    /// `price` + `currency` as exact money; both or neither.
    func money(price priceField: String, currency currencyField: String) throws(RowRejection) -> Money? {
        let price = string(priceField)
        let currency = string(currencyField)
        switch (price, currency) {
        case (nil, nil): return nil
        case (.some, nil): throw RowRejection("'\(priceField)' given without '\(currencyField)'")
        case (nil, .some(let code)):
            guard Currency.lookup(code) != nil else {
                throw RowRejection("unknown currency '\(code.prefix(10))' in '\(currencyField)'")
            }
            return nil
        case (.some(let text), .some(let code)):
            do {
                return try Money.parse(text, currency: code)
            } catch {
                switch error {
                case .unknownCurrency: throw RowRejection("unknown currency '\(code.prefix(10))' in '\(currencyField)'")
                default: throw RowRejection("bad price in '\(priceField)': \(error)")
                }
            }
        }
    }
}

/// Why one input row was not accepted: a reason a person can act on.
struct RowRejection: Error, Sendable, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Builds domain values from rows (SPEC §1.1–1.3).
enum RowParser {
    static let transactionFields = [
        "record_id", "user_id", "product_id", "transaction_id", "original_transaction_id", "purchase_date",
        "quantity", "environment", "price", "currency", "storefront", "verification_status", "delivered_at",
        "finished_at", "receipt_id",
    ]
    static let receiptFields = ["receipt_id", "user_id", "received_at", "format", "data", "claimed_environment"]
    static let productFields = ["product_id", "type", "price", "currency", "storefront", "proceeds_rate"]

    static func transaction(_ row: RowFields) throws(RowRejection) -> LedgerTransaction {
        let recordID = try row.required("record_id")
        let userID = try row.required("user_id")
        let productID = try row.required("product_id")
        let transactionID = try row.required("transaction_id")
        let purchaseDate = try row.requiredTimestamp("purchase_date")
        let statusText = try row.required("verification_status")
        guard let status = VerificationStatus(rawValue: statusText.lowercased()) else {
            throw RowRejection(
                "bad value in 'verification_status': '\(statusText.prefix(40))' (expected pending, verified, invalid or error)")
        }
        let storefront = try storefront(row.string("storefront"))
        return LedgerTransaction(
            recordID: recordID, userID: userID, productID: productID, transactionID: transactionID,
            originalTransactionID: row.string("original_transaction_id"), purchaseDate: purchaseDate,
            quantity: try row.positiveInt("quantity") ?? 1,
            environment: try row.environment("environment") ?? .production,
            price: try row.money(price: "price", currency: "currency"), storefront: storefront,
            verificationStatus: status, deliveredAt: try row.timestamp("delivered_at"),
            finishedAt: try row.timestamp("finished_at"), receiptID: row.string("receipt_id"))
    }

    static func receipt(_ row: RowFields) throws(RowRejection) -> UploadedReceipt {
        let receiptID = try row.required("receipt_id")
        let formatText = try row.required("format")
        guard let format = ReceiptFormat(rawValue: formatText.lowercased()) else {
            throw RowRejection(
                "bad value in 'format': '\(formatText.prefix(40))' (expected app-receipt, transaction-receipt or signed-transaction)")
        }
        let data = try row.required("data")
        return UploadedReceipt(
            receiptID: receiptID, userID: row.string("user_id"), receivedAt: try row.timestamp("received_at"),
            format: format, data: data, claimedEnvironment: try row.environment("claimed_environment"))
    }

    static func product(_ row: RowFields) throws(RowRejection) -> CatalogProduct {
        let productID = try row.required("product_id")
        let typeText = try row.required("type")
        guard let type = ProductType(rawValue: typeText.lowercased()) else {
            throw RowRejection(
                "bad value in 'type': '\(typeText.prefix(40))' (expected consumable, non-consumable, auto-renewable or non-renewing)")
        }
        var ppm = CatalogProduct.defaultProceedsRatePPM
        if let rate = row.string("proceeds_rate") {
            guard let value = try? Money.parseDecimal(rate, maxDecimals: 6, scale: 6), value > 0, value <= 1_000_000
            else { throw RowRejection("bad number in 'proceeds_rate': '\(rate.prefix(20))' (expected 0 < rate ≤ 1)") }
            ppm = value
        }
        return CatalogProduct(
            productID: productID, type: type, price: try row.money(price: "price", currency: "currency"),
            storefront: try storefront(row.string("storefront")), proceedsRatePPM: ppm)
    }

    private static func storefront(_ text: String?) throws(RowRejection) -> String? {
        guard let text else { return nil }
        let upper = text.uppercased()
        guard upper.count == 3, upper.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw RowRejection("bad value in 'storefront': '\(text.prefix(20))' (expected ISO 3166-1 alpha-3 like USA)")
        }
        return upper
    }
}

import Foundation
