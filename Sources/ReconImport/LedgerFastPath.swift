import AppleData
import Foundation
import ReconModel
import ReconStorage

/// The fast path for the common ledger record: one line of printable ASCII without quotes,
/// every value already in its canonical form (`Production`, `verified`, `USA`, `0.99` with
/// `USD`, ISO 8601 or epoch milliseconds).
///
/// It only ever accepts what ``RowParser/transaction(_:)`` would accept, with the same values;
/// anything else (a quote, a blank to trim, `production` in lower case, a bad value) is declined,
/// and the record goes the general way, which gives the same result or the exact rejection.
package struct LedgerFastPath {
    private let positions: [Int]
    private let width: Int
    private let seed: UInt64
    /// Where each field of the current record starts (and one past the last field's end + 1).
    private var starts: [Int]
    /// Decimals of each currency code seen (packed as 3 bytes); -1 for a code that is not ISO 4217.
    private var decimals: [UInt32: Int] = [:]

    /// Records longer than this go the general way (nothing real comes close).
    package static let maxRecordLength = 16_384

    package init(layout: FieldLayout, width: Int, seed: UInt64) {
        positions = layout.positions
        self.width = width
        self.seed = seed
        starts = [Int](repeating: 0, count: width + 1)
    }

    /// The record `record` (its line break excluded) as a packed row whose text is appended to
    /// `bytes`, or nil when the general path must judge it.
    package mutating func parse(
        _ record: UnsafeBufferPointer<UInt8>, line: Int, into bytes: inout [UInt8]
    ) -> PackedTransaction? {
        let count = record.count
        guard count > 0, count <= Self.maxRecordLength, let base = record.baseAddress else { return nil }
        let width = self.width
        let found: Bool = starts.withUnsafeMutableBufferPointer { starts in
            var fields = 1
            starts[0] = 0
            var i = 0
            while i < count {
                let c = base[i]
                if c == 0x2C {
                    guard fields < width else { return false }
                    starts[fields] = i + 1
                    fields += 1
                } else if c < 0x20 || c > 0x7E || c == 0x22 {
                    return false
                }
                i += 1
            }
            guard fields == width else { return false }
            starts[width] = count + 1
            return true
        }
        guard found else { return nil }
        return starts.withUnsafeBufferPointer { starts -> PackedTransaction? in
            /// The bounds of `field`'s value; empty when the file lacks the column or the value is empty.
            func span(_ field: Field) -> (Int, Int)? {
                let column = positions[field.rawValue]
                guard column >= 0 else { return (0, 0) }
                let s = starts[column]
                let e = starts[column + 1] - 1
                // A value with blanks around it is trimmed by the general path.
                if e > s, base[s] == 0x20 || base[e - 1] == 0x20 { return nil }
                return (s, e)
            }
            func required(_ field: Field) -> (Int, Int)? {
                guard let (s, e) = span(field), e > s else { return nil }
                return (s, e)
            }
            func timestamp(_ s: Int, _ e: Int) -> Int64?? {
                if e == s { return .some(nil) }
                guard let millis = Timestamp.parse(bytes: UnsafeBufferPointer(start: base + s, count: e - s)),
                    Timestamp.plausible.contains(millis)
                else { return nil }
                return .some(millis)
            }
            func equals(_ s: Int, _ e: Int, _ literal: StaticString) -> Bool {
                guard e - s == literal.utf8CodeUnitCount else { return false }
                return memcmp(base + s, literal.utf8Start, e - s) == 0
            }

            guard let recordID = required(.recordID), let userID = required(.userID),
                let productID = required(.productID), let transactionID = required(.transactionID),
                let purchase = required(.purchaseDate), let status = required(.verificationStatus),
                let original = span(.originalTransactionID), let quantityText = span(.quantity),
                let environment = span(.environment), let price = span(.price), let currency = span(.currency),
                let storefront = span(.storefront), let delivered = span(.deliveredAt),
                let finished = span(.finishedAt), let receipt = span(.receiptID)
            else { return nil }

            guard case .some(.some(let purchaseDate)) = timestamp(purchase.0, purchase.1),
                case .some(let deliveredAt) = timestamp(delivered.0, delivered.1),
                case .some(let finishedAt) = timestamp(finished.0, finished.1)
            else { return nil }

            let verification: VerificationStatus
            if equals(status.0, status.1, "verified") {
                verification = .verified
            } else if equals(status.0, status.1, "pending") {
                verification = .pending
            } else if equals(status.0, status.1, "invalid") {
                verification = .invalid
            } else if equals(status.0, status.1, "error") {
                verification = .error
            } else {
                return nil
            }

            var sandbox = false
            if environment.1 > environment.0 {
                if equals(environment.0, environment.1, "Sandbox") {
                    sandbox = true
                } else if !equals(environment.0, environment.1, "Production") {
                    return nil
                }
            }

            if storefront.1 > storefront.0 {
                guard storefront.1 - storefront.0 == 3 else { return nil }
                for k in storefront.0..<storefront.1 where base[k] < 0x41 || base[k] > 0x5A { return nil }
            }

            var quantity: Int64 = 1
            if quantityText.1 > quantityText.0 {
                guard quantityText.1 - quantityText.0 <= 2 else { return nil }
                var value: Int64 = 0
                for k in quantityText.0..<quantityText.1 {
                    let c = base[k]
                    guard c >= 0x30, c <= 0x39 else { return nil }
                    value = value * 10 + Int64(c - 0x30)
                }
                guard value >= 1, value <= 10 else { return nil }
                quantity = value
            }

            var priceMilli: Int64?
            switch (price.1 > price.0, currency.1 > currency.0) {
            case (false, false): priceMilli = nil
            case (true, true):
                guard currency.1 - currency.0 == 3 else { return nil }
                var key: UInt32 = 0
                for k in currency.0..<currency.1 {
                    let c = base[k]
                    guard c >= 0x41, c <= 0x5A else { return nil }
                    key = key << 8 | UInt32(c)
                }
                let places: Int
                if let known = decimals[key] {
                    places = known
                } else {
                    let code = String(decoding: UnsafeBufferPointer(start: base + currency.0, count: 3), as: UTF8.self)
                    places = Currency.lookup(code)?.decimals ?? -1
                    decimals[key] = places
                }
                guard places >= 0,
                    let milli = Self.decimal(base, price.0, price.1, maxDecimals: min(places, 3)),
                    !milli.multipliedReportingOverflow(by: quantity).overflow
                else { return nil }
                priceMilli = milli
            default: return nil
            }

            let offset = bytes.count
            bytes.append(contentsOf: record)
            func spanOf(_ bounds: (Int, Int)) -> ByteSpan {
                ByteSpan(start: Int32(offset + bounds.0), count: Int32(bounds.1 - bounds.0))
            }
            let transactionSpan = spanOf(transactionID)
            return PackedTransaction(
                line: line, hash: RowHash.hash(UnsafeRawBufferPointer(record), seed: seed),
                recordID: spanOf(recordID), userID: spanOf(userID), productID: spanOf(productID),
                transactionID: transactionSpan,
                originalTransactionID: original.1 > original.0 ? spanOf(original) : transactionSpan,
                currency: priceMilli == nil ? .absent : spanOf(currency),
                storefront: storefront.1 > storefront.0 ? spanOf(storefront) : .absent,
                receiptID: receipt.1 > receipt.0 ? spanOf(receipt) : .absent,
                purchaseDate: purchaseDate, deliveredAt: deliveredAt, finishedAt: finishedAt, priceMilli: priceMilli,
                quantity: quantity, status: verification, sandbox: sandbox)
        }
    }

    /// `12.34` as milliunits: 1 to 15 whole digits, then optionally `.` and 1 to `maxDecimals`
    /// digits; nil for anything else (the general path decides those).
    private static func decimal(_ base: UnsafePointer<UInt8>, _ s: Int, _ e: Int, maxDecimals: Int) -> Int64? {
        var i = s
        var whole: Int64 = 0
        while i < e, base[i] >= 0x30, base[i] <= 0x39 {
            whole = whole * 10 + Int64(base[i] - 0x30)
            i += 1
        }
        let wholeDigits = i - s
        guard wholeDigits >= 1, wholeDigits <= 15 else { return nil }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if i < e {
            guard base[i] == 0x2E else { return nil }
            i += 1
            while i < e, base[i] >= 0x30, base[i] <= 0x39 {
                fraction = fraction * 10 + Int64(base[i] - 0x30)
                fractionDigits += 1
                i += 1
            }
            guard fractionDigits >= 1, i == e else { return nil }
        }
        guard fractionDigits <= maxDecimals else { return nil }
        for _ in fractionDigits..<3 { fraction *= 10 }
        return whole * 1000 + fraction
    }
}
