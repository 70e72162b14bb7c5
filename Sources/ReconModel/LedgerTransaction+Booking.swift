import Foundation

/// How the ledger books its rows.
extension LedgerTransaction {
    /// The order rows were booked in: purchase date, then record id.
    ///
    /// "The first" row always means the first in this order.
    package static func bookingOrder(_ lhs: LedgerTransaction, _ rhs: LedgerTransaction) -> Bool {
        if lhs.purchaseDate != rhs.purchaseDate { return lhs.purchaseDate < rhs.purchaseDate }
        return lhs.recordID < rhs.recordID
    }

    /// Whether the ledger itself counts the row as revenue: booked as Production and not marked
    /// `invalid` (pending, verified and error rows all count).
    package var ledgerCountsAsRevenue: Bool {
        environment.isProduction && verificationStatus != .invalid
    }

    /// The first row of each transaction id, in booking order: a restore chain or an original
    /// group seen once per Apple transaction, leaving repeated ids to the duplicate detectors.
    package static func firstRowPerTransaction(_ rows: [LedgerTransaction]) -> [LedgerTransaction] {
        var seen = Set<String>()
        return rows.sorted(by: LedgerTransaction.bookingOrder).filter { seen.insert($0.transactionID).inserted }
    }
}
