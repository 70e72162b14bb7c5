/// The key a transaction's kept results are distributed by (docs/store.md, "The store on Citus").
extension TransactionGroup {
    /// The original transaction id this transaction belongs to, as the store states it: the smallest (byte by
    /// byte) the ledger's rows name, else the smallest Apple's evidence names, else the transaction id itself.
    ///
    /// Apple's `originalTransactionId` "is identical to the transaction identifier except when the user restores a
    /// purchase or renews a subscription"
    /// (https://developer.apple.com/documentation/appstoreserverapi/originaltransactionid), so a transaction that
    /// names none is its own original. The smallest, not the first: a ledger whose rows of one transaction disagree
    /// still gives one value, the one the store's
    /// migration `issue34-distribution-keys` works out in SQL.
    public var originalTransactionID: String {
        if let booked = records.lazy.map(\.originalTransactionID).min(by: Self.bytewise) { return booked }
        if let stated = evidence.lazy.compactMap(\.entry.originalTransactionID).min(by: Self.bytewise) {
            return stated
        }
        return transactionID
    }

    /// Byte by byte: SQLite's `BINARY` and PostgreSQL's `COLLATE "C"`, as the store's `MIN` compares.
    private static func bytewise(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
