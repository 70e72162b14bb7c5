/// Where a text value of a ``PackedTransaction`` sits in its chunk's bytes; `count == 0` is absent.
struct ByteSpan: Sendable {
    var start: Int32
    var count: Int32

    static let absent = ByteSpan(start: 0, count: 0)
    var isAbsent: Bool { count == 0 }
}

/// A ledger row accepted by ``LedgerFastPath``: its text values point into the bytes of the
/// chunk it was parsed into, so a million rows cost no per-field strings on either thread.
struct PackedTransaction: Sendable {
    var line: Int
    /// ``RowHash`` of the record's text.
    var hash: UInt64
    var recordID: ByteSpan
    var userID: ByteSpan
    var productID: ByteSpan
    var transactionID: ByteSpan
    var originalTransactionID: ByteSpan
    var currency: ByteSpan
    var storefront: ByteSpan
    var receiptID: ByteSpan
    var purchaseDate: Int64
    var deliveredAt: Int64?
    var finishedAt: Int64?
    var priceMilli: Int64?
    var quantity: Int64
    var status: VerificationStatus
    var sandbox: Bool
}

extension PackedTransaction {
    /// The row as the value the general path builds (for comparisons; the writer binds bytes).
    func transaction(in bytes: UnsafeBufferPointer<UInt8>) -> LedgerTransaction {
        func text(_ span: ByteSpan) -> String? {
            guard !span.isAbsent, let base = bytes.baseAddress else { return nil }
            let text = UnsafeBufferPointer(start: base + Int(span.start), count: Int(span.count))
            return String(decoding: text, as: UTF8.self)
        }
        let currency = text(currency)
        return LedgerTransaction(
            recordID: text(recordID) ?? "", userID: text(userID) ?? "", productID: text(productID) ?? "",
            transactionID: text(transactionID) ?? "", originalTransactionID: text(originalTransactionID),
            purchaseDate: purchaseDate, quantity: Int(quantity), environment: sandbox ? .sandbox : .production,
            price: priceMilli.flatMap { milli in currency.map { Money(milliunits: milli, currency: $0) } },
            storefront: text(storefront), verificationStatus: status, deliveredAt: deliveredAt, finishedAt: finishedAt,
            receiptID: text(receiptID))
    }
}
