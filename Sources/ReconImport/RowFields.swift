import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Every input field of CONTRACT §1, across the three kinds of file.
package enum Field: Int, CaseIterable {
    case recordID, userID, productID, transactionID, originalTransactionID, purchaseDate, quantity, environment
    case price, currency, storefront, verificationStatus, deliveredAt, finishedAt, receiptID
    case receivedAt, format, data, claimedEnvironment, type, proceedsRate, proceeds, expiresAt, updatedAt
    case duration, sampleContent, consentedAt, withdrawnAt

    /// The field's name in files and messages.
    package var name: String {
        switch self {
        case .recordID: return "record_id"
        case .userID: return "user_id"
        case .productID: return "product_id"
        case .transactionID: return "transaction_id"
        case .originalTransactionID: return "original_transaction_id"
        case .purchaseDate: return "purchase_date"
        case .quantity: return "quantity"
        case .environment: return "environment"
        case .price: return "price"
        case .currency: return "currency"
        case .storefront: return "storefront"
        case .verificationStatus: return "verification_status"
        case .deliveredAt: return "delivered_at"
        case .finishedAt: return "finished_at"
        case .receiptID: return "receipt_id"
        case .receivedAt: return "received_at"
        case .format: return "format"
        case .data: return "data"
        case .claimedEnvironment: return "claimed_environment"
        case .type: return "type"
        case .proceedsRate: return "proceeds_rate"
        case .proceeds: return "proceeds"
        case .expiresAt: return "expires_at"
        case .updatedAt: return "updated_at"
        case .duration: return "duration"
        case .sampleContent: return "sample_content"
        case .consentedAt: return "consented_at"
        case .withdrawnAt: return "withdrawn_at"
        }
    }

    package static let byName: [String: Field] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

/// Where each known field sits in a file's rows, resolved once from the header.
package struct FieldLayout {
    /// `positions[field.rawValue]` is the column of `field`, or -1 when the file lacks it.
    package let positions: [Int]
    /// The header's names as given.
    package let names: [String]

    /// The layout of a header row (names compared trimmed and case-insensitively; unknown
    /// columns ignored; the first of duplicate columns wins).
    package init(header: [String]) {
        var positions = [Int](repeating: -1, count: Field.allCases.count)
        for (index, name) in header.enumerated() {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            if let field = Field.byName[key], positions[field.rawValue] < 0 { positions[field.rawValue] = index }
        }
        self.positions = positions
        names = header
    }
}

/// One input row's values by field, whatever the file format, with typed accessors that
/// throw a ``RowRejection`` naming the field.
package struct RowFields {
    private let layout: FieldLayout
    private let values: [String]

    /// A row whose `values` are laid out as `layout` says; empty strings count as absent.
    package init(layout: FieldLayout, values: [String]) {
        self.layout = layout
        self.values = values
    }

    /// The column names of the row's file (a JSONL line's keys).
    package var names: [String] { layout.names }

    /// The raw value, nil when absent or empty (surrounding blanks trimmed).
    package func string(_ field: Field) -> String? {
        let index = layout.positions[field.rawValue]
        guard index >= 0, index < values.count else { return nil }
        let value = values[index]
        guard let first = value.utf8.first, let last = value.utf8.last else { return nil }
        // Fast path: most values carry no surrounding blanks.
        if first != 0x20, first != 0x09, last != 0x20, last != 0x09 { return value }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    package func required(_ field: Field) throws(RowRejection) -> String {
        guard let value = string(field) else { throw RowRejection("missing required field '\(field.name)'") }
        return value
    }

    package func timestamp(_ field: Field) throws(RowRejection) -> Int64? {
        guard let text = string(field) else { return nil }
        guard let millis = Timestamp.parse(text) else {
            throw RowRejection(
                "bad timestamp in '\(field.name)': '\(text.prefix(40))' (expected ISO 8601 with offset or epoch milliseconds)"
            )
        }
        guard Timestamp.plausible.contains(millis) else {
            throw RowRejection(Timestamp.implausibleReason(field: field.name, text: text, millis: millis))
        }
        return millis
    }

    package func requiredTimestamp(_ field: Field) throws(RowRejection) -> Int64 {
        _ = try required(field)
        return try timestamp(field) ?? 0
    }

    /// A quantity: a whole number from 1 to 10 (Apple sells at most 10 of a product in one
    /// transaction: SKMutablePayment.quantity's documented maximum).
    package func quantity(_ field: Field) throws(RowRejection) -> Int? {
        guard let text = string(field) else { return nil }
        guard let value = Int(text) else {
            throw RowRejection(
                "bad number in '\(field.name)': '\(text.prefix(40))' (expected a whole number from 1 to 10)")
        }
        guard (1...10).contains(value) else {
            throw RowRejection(
                "implausible value in '\(field.name)': \(value) (Apple sells from 1 to 10 of a product in one transaction)"
            )
        }
        return value
    }

    package func environment(_ field: Field) throws(RowRejection) -> StoreEnvironment? {
        guard let text = string(field) else { return nil }
        if text == "Production" { return .production }
        if text == "Sandbox" { return .sandbox }
        switch text.lowercased() {
        case "production": return .production
        case "sandbox": return .sandbox
        default:
            throw RowRejection("bad value in '\(field.name)': '\(text.prefix(40))' (expected Production or Sandbox)")
        }
    }

    package func oneOf<E: RawRepresentable & CaseIterable>(_ field: Field, _ type: E.Type) throws(RowRejection) -> E?
    where E.RawValue == String {
        guard let text = string(field) else { return nil }
        if let value = E(rawValue: text) ?? E(rawValue: text.lowercased()) { return value }
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw RowRejection("bad value in '\(field.name)': '\(text.prefix(40))' (expected one of \(allowed))")
    }

    /// `price` + `currency` as exact money; both or neither.
    package func money(price priceField: Field, currency currencyField: Field) throws(RowRejection) -> Money? {
        let price = string(priceField)
        let currency = string(currencyField)
        switch (price, currency) {
        case (nil, nil): return nil
        case (.some, nil): throw RowRejection("'\(priceField.name)' given without '\(currencyField.name)'")
        case (nil, .some(let code)):
            guard Currency.lookup(code) != nil else {
                throw RowRejection("unknown currency '\(code.prefix(10))' in '\(currencyField.name)'")
            }
            return nil
        case (.some(let text), .some(let code)):
            do {
                let money = try Money.parse(text, currency: code)
                guard money.milliunits >= 0 else {
                    throw RowRejection(
                        "implausible value in '\(priceField.name)': '\(text.prefix(40))' is negative (a price is what the customer paid)"
                    )
                }
                return money
            } catch let rejection as RowRejection {
                throw rejection
            } catch let error as MoneyError {
                switch error {
                case .unknownCurrency:
                    throw RowRejection("unknown currency '\(code.prefix(10))' in '\(currencyField.name)'")
                case .outOfRange: throw RowRejection("bad price in '\(priceField.name)': \(error) for the money type")
                default: throw RowRejection("bad price in '\(priceField.name)': \(error)")
                }
            } catch {
                throw RowRejection("bad price in '\(priceField.name)': \(error)")
            }
        }
    }
}

/// Builds domain values from rows (CONTRACT §1.1–1.3).
package enum RowParser {
    package static func transaction(_ row: RowFields) throws(RowRejection) -> LedgerTransaction {
        let recordID = try row.required(.recordID)
        let userID = try row.required(.userID)
        let productID = try row.required(.productID)
        let transactionID = try row.required(.transactionID)
        let purchaseDate = try row.requiredTimestamp(.purchaseDate)
        let statusText = try row.required(.verificationStatus)
        guard
            let status = VerificationStatus(rawValue: statusText)
                ?? VerificationStatus(rawValue: statusText.lowercased())
        else {
            throw RowRejection(
                "bad value in 'verification_status': '\(statusText.prefix(40))' (expected pending, verified, invalid or error)"
            )
        }
        let storefront = try storefront(row.string(.storefront))
        let quantity = try row.quantity(.quantity) ?? 1
        let price = try row.money(price: .price, currency: .currency)
        if let price, price.times(quantity) == nil {
            throw RowRejection(
                "implausible value in 'price': \(price.formatted) \(price.currency) × \(quantity) does not fit the money type"
            )
        }
        return LedgerTransaction(
            recordID: recordID, userID: userID, productID: productID, transactionID: transactionID,
            originalTransactionID: row.string(.originalTransactionID), purchaseDate: purchaseDate,
            quantity: quantity,
            environment: try row.environment(.environment) ?? .production,
            price: price, storefront: storefront,
            verificationStatus: status, deliveredAt: try row.timestamp(.deliveredAt),
            finishedAt: try row.timestamp(.finishedAt), receiptID: row.string(.receiptID))
    }

    package static func receipt(_ row: RowFields) throws(RowRejection) -> UploadedReceipt {
        let receiptID = try row.required(.receiptID)
        let formatText = try row.required(.format)
        guard let format = ReceiptFormat(rawValue: formatText.lowercased()) else {
            throw RowRejection(
                "bad value in 'format': '\(formatText.prefix(40))' (expected app-receipt, transaction-receipt or signed-transaction)"
            )
        }
        let data = try row.required(.data)
        return UploadedReceipt(
            receiptID: receiptID, userID: row.string(.userID), receivedAt: try row.timestamp(.receivedAt),
            format: format, data: data, claimedEnvironment: try row.environment(.claimedEnvironment))
    }

    package static func product(_ row: RowFields) throws(RowRejection) -> CatalogProduct {
        let productID = try row.required(.productID)
        let typeText = try row.required(.type)
        guard let type = ProductType(rawValue: typeText.lowercased()) else {
            throw RowRejection(
                "bad value in 'type': '\(typeText.prefix(40))' (expected consumable, non-consumable, auto-renewable or non-renewing)"
            )
        }
        var ppm = CatalogProduct.defaultProceedsRatePPM
        if let rate = row.string(.proceedsRate) {
            guard let value = try? Money.parseDecimal(rate, maxDecimals: 6, scale: 6), value > 0, value <= 1_000_000
            else { throw RowRejection("bad number in 'proceeds_rate': '\(rate.prefix(20))' (expected 0 < rate ≤ 1)") }
            ppm = value
        }
        var duration: ServicePeriod?
        if let text = row.string(.duration) {
            guard let period = ServicePeriod(iso: text) else {
                throw RowRejection(
                    "bad value in 'duration': '\(text.prefix(20))' (expected P1W, P1M, P2M, P3M, P6M or P1Y)")
            }
            duration = period
        }
        var product = CatalogProduct(
            productID: productID, type: type, price: try row.money(price: .price, currency: .currency),
            storefront: try storefront(row.string(.storefront)), proceedsRatePPM: ppm,
            proceeds: try row.money(price: .proceeds, currency: .currency), duration: duration)
        if let text = row.string(.sampleContent) {
            switch text.lowercased() {
            case "yes": product.sampleContent = true
            case "no": product.sampleContent = false
            default: throw RowRejection("bad value in 'sample_content': '\(text.prefix(20))' (expected yes or no)")
            }
        }
        return product
    }

    /// A consent row (CONTRACT §1.10): `withdrawn_at` before `consented_at` is not a consent.
    package static func consent(_ row: RowFields) throws(RowRejection) -> Consent {
        let userID = try row.required(.userID)
        let consentedAt = try row.requiredTimestamp(.consentedAt)
        let withdrawnAt = try row.timestamp(.withdrawnAt)
        if let withdrawnAt, withdrawnAt < consentedAt {
            throw RowRejection("'withdrawn_at' is before 'consented_at'")
        }
        return Consent(userID: userID, consentedAt: consentedAt, withdrawnAt: withdrawnAt)
    }

    /// An entitlement row (CONTRACT §1.8).
    package static func entitlement(_ row: RowFields) throws(RowRejection) -> Entitlement {
        Entitlement(
            userID: try row.required(.userID), originalTransactionID: try row.required(.originalTransactionID),
            productID: try row.required(.productID), expiresAt: try row.requiredTimestamp(.expiresAt),
            environment: try row.environment(.environment) ?? .production, updatedAt: try row.timestamp(.updatedAt))
    }

    private static func storefront(_ text: String?) throws(RowRejection) -> String? {
        guard let text else { return nil }
        if text.utf8.count == 3, text.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) { return text }
        let upper = text.uppercased()
        guard upper.utf8.count == 3, upper.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw RowRejection("bad value in 'storefront': '\(text.prefix(20))' (expected ISO 3166-1 alpha-3 like USA)")
        }
        return upper
    }
}
