import AppleData
import Foundation
import ReconModel
import ReconStorage

/// What a receipt-level finding is filed under and what it puts at stake.
extension ReceiptCase {
    /// The transaction id a receipt-level finding is filed under: the first ledger row pointing at
    /// the receipt (by record id), else the first purchase decoded from it, else the receipt id.
    package var findingTransactionID: String {
        if let row = records.min(by: { $0.recordID < $1.recordID }) { return row.transactionID }
        if let entry = decoded?.entries.first { return entry.transactionID }
        return receipt.receiptID
    }

    /// Everyone a receipt concerns: its uploader and the users of the rows pointing at it.
    package var concernedUserIDs: [String] {
        (receipt.userID.map { [$0] } ?? []) + records.map(\.userID)
    }

    /// The revenue the ledger booked on a receipt's rows (rows it counts as revenue).
    package func bookedRevenue(in context: DetectionContext) -> MoneyTally {
        var tally = MoneyTally()
        for row in records.sorted(by: LedgerTransaction.bookingOrder) where row.ledgerCountsAsRevenue {
            tally.add(context.value(of: row, applePrice: nil), for: row.recordID)
        }
        return tally
    }
}

extension Finding {
    /// A finding about an uploaded receipt that ledger rows rely on: filed under the receipt's transaction (see
    /// ``ReceiptCase/findingTransactionID``), naming everyone involved, with the revenue booked on those rows at
    /// stake.
    ///
    /// `message` is given the rows in booking order.
    package init(
        _ code: FindingCode, receipt: ReceiptCase, environment: StoreEnvironment?, in context: DetectionContext,
        message: (_ rows: [LedgerTransaction], _ booked: MoneyTally) -> Message
    ) {
        let booked = receipt.bookedRevenue(in: context)
        let rows = receipt.records.sorted(by: LedgerTransaction.bookingOrder)
        self.init(
            code, transactionID: receipt.findingTransactionID,
            originalTransactionID: rows.first?.originalTransactionID, userIDs: receipt.concernedUserIDs,
            productID: rows.first?.productID, environment: environment, amount: booked.amount,
            message: message(rows, booked), recordIDs: rows.map(\.recordID), receiptID: receipt.receipt.receiptID)
    }
}
