import AppleData
import ReconModel
import ReconStorage

/// One parsed input row: a value to upsert, or a rejection to keep.
package enum ParsedRow: Sendable {
    /// A ledger row and the ``RowHash`` of its text.
    case transaction(LedgerTransaction, line: Int, hash: UInt64)
    case receipt(UploadedReceipt, line: Int)
    case product(CatalogProduct, line: Int)
    case entitlement(Entitlement, line: Int)
    case consent(Consent, line: Int)
    case rejected(RejectedRow)
    /// Not a row: a warning about the file (an unknown column).
    case warning(String)
}

/// One item of a parsed chunk, in file order.
package enum ImportItem: Sendable {
    /// A ledger row from the fast path, its text in the chunk's bytes.
    case packed(PackedTransaction)
    case parsed(ParsedRow)
}

/// Consecutive parsed rows of one file, and the bytes their packed rows point into.
package struct ParsedChunk: Sendable {
    package var items: [ImportItem] = []
    package var bytes: [UInt8] = []
    /// The first and last line of the chunk's ledger rows (`firstLine > lastLine` when none).
    package var firstLine = Int.max
    package var lastLine = Int.min
}
