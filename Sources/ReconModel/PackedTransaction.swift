/// Where a text value of a ``PackedTransaction`` sits in its chunk's bytes; `count == 0` is absent.
package struct ByteSpan: Sendable {
    package var start: Int32
    package var count: Int32

    package static let absent = ByteSpan(start: 0, count: 0)
    package var isAbsent: Bool { count == 0 }

    package init(start: Int32, count: Int32) {
        self.start = start
        self.count = count
    }
}

/// A ledger row accepted by ``LedgerFastPath``: its text values point into the bytes of the
/// chunk it was parsed into, so a million rows cost no per-field strings on either thread.
package struct PackedTransaction: Sendable {
    package var line: Int
    /// ``RowHash`` of the record's text.
    package var hash: UInt64
    package var recordID: ByteSpan
    package var userID: ByteSpan
    package var productID: ByteSpan
    package var transactionID: ByteSpan
    package var originalTransactionID: ByteSpan
    package var currency: ByteSpan
    package var storefront: ByteSpan
    package var receiptID: ByteSpan
    package var purchaseDate: Int64
    package var deliveredAt: Int64?
    package var finishedAt: Int64?
    package var priceMilli: Int64?
    package var quantity: Int64
    package var status: VerificationStatus
    package var sandbox: Bool

    package init(
        line: Int, hash: UInt64, recordID: ByteSpan, userID: ByteSpan, productID: ByteSpan, transactionID: ByteSpan,
        originalTransactionID: ByteSpan, currency: ByteSpan, storefront: ByteSpan, receiptID: ByteSpan,
        purchaseDate: Int64, deliveredAt: Int64? = nil, finishedAt: Int64? = nil, priceMilli: Int64? = nil,
        quantity: Int64, status: VerificationStatus, sandbox: Bool
    ) {
        self.line = line
        self.hash = hash
        self.recordID = recordID
        self.userID = userID
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.currency = currency
        self.storefront = storefront
        self.receiptID = receiptID
        self.purchaseDate = purchaseDate
        self.deliveredAt = deliveredAt
        self.finishedAt = finishedAt
        self.priceMilli = priceMilli
        self.quantity = quantity
        self.status = status
        self.sandbox = sandbox
    }
}

extension PackedTransaction {
    /// The row as the value the general path builds (for comparisons; the writer binds bytes).
    package func transaction(in bytes: UnsafeBufferPointer<UInt8>) -> LedgerTransaction {
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
