/// A refund Apple granted and later reversed, as Apple's books keep it: the refund stays on the day Apple refunded,
/// and the reversal is booked on the day Apple reversed it.
///
/// ``RefundState`` gives the verdict the detectors use (Apple's latest word: a reversed refund is not refunded);
/// this keeps the history behind it for the books. Apple reverses a refund after a dispute the customer raised,
/// and tells the developer with a `REFUND_REVERSED` notification
/// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype); its Summary Sales
/// Report keeps the refund row (negative units) on the refund day
/// (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report).
package struct ReversedRefund {
    /// The refund as Apple stated it (``RefundState/refunded(_:_:)``): how much of the price it gave back.
    package var refund: RefundState
    /// The evidence that stated the refund.
    package var refundEvidence: EvidenceRecord
    /// The evidence that stated the reversal (a `REFUND_REVERSED` notification, or a later signed transaction
    /// without `revocationDate`).
    package var reversalEvidence: EvidenceRecord
    /// When Apple refunded: the refunding evidence's `revocationDate`, else when it was recorded.
    package var refundedAt: Int64
    /// When Apple stated the reversal: the reversing evidence's `signedDate`, else when it was recorded.
    package var reversedAt: Int64

    /// Every refund that a later statement reversed, in the order Apple made them, read from authentic evidence
    /// with the one refund rule (``RefundState/stated(by:)``, in the order ``RefundState/statedAt(_:)`` gives).
    ///
    /// A refund stated again after its reversal, with the same refund date, undoes that reversal (Apple's latest
    /// word is then the refund, which ``RefundState`` books); a family revocation or an upgrade is no refund to
    /// reverse.
    package static func all(in authentic: [EvidenceRecord]) -> [ReversedRefund] {
        var statements: [(at: Int64, order: Int, record: EvidenceRecord, state: RefundState)] = []
        for (order, record) in RefundState.upgradesCarriedOver(authentic).enumerated() {
            guard let state = RefundState.stated(by: record) else { continue }
            statements.append((RefundState.statedAt(record), order, record, state))
        }
        guard statements.contains(where: { if case .refunded = $0.state { true } else { false } }) else { return [] }
        statements.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var reversed: [ReversedRefund] = []
        var open: (record: EvidenceRecord, state: RefundState)?
        for statement in statements {
            switch statement.state {
            case .refunded:
                if open == nil, let last = reversed.last, last.refundedAt == refundDate(statement.record) {
                    reversed.removeLast()
                }
                open = (statement.record, statement.state)
            case .notRefunded:
                guard let refund = open else { continue }
                reversed.append(
                    ReversedRefund(
                        refund: refund.state, refundEvidence: refund.record, reversalEvidence: statement.record,
                        refundedAt: refundDate(refund.record), reversedAt: statement.at))
                open = nil
            case .familyRevoked, .upgraded:
                open = nil
            }
        }
        return reversed
    }

    /// The day Apple refunded, as ``RevenuePolicy`` books a refund.
    package static func refundDate(_ record: EvidenceRecord) -> Int64 {
        record.entry.cancellationDate ?? record.recordedAt
    }
}
