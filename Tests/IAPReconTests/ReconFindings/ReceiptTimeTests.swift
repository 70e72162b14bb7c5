import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// Apple's later word is ordered by when Apple said it.
///
/// A signed statement speaks as of its `signedDate`
/// (https://developer.apple.com/documentation/appstoreserverapi/signeddate); a receipt as of its creation date
/// (app receipt field 12, verifyReceipt `receipt.receipt_creation_date_ms`:
/// https://developer.apple.com/documentation/appstorereceipts/responsebody/receipt), however late it is uploaded or
/// verified. So a stale receipt never undoes a signed reversal (`REFUND_REVERSED`:
/// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype), nor hides a later
/// signed refund.
@Suite struct ReceiptTimeTests {
    static let tx = "2000000200000001"
    static let day = Fx.day
    /// Refunded 8 days before as-of, the refund reversed 4 days before.
    static let refunded = Fx.asOf - 8 * day
    static let reversed = Fx.asOf - 4 * day

    /// Apple's signed refund and its signed reversal (Server API answers by `signedDate`).
    static let signedRefund = Fx.serverAPI(tx) {
        $0.cancellationDate = refunded
        $0.revocationType = "REFUND_FULL"
        $0.signedDate = refunded
    }
    static let signedReversal = Fx.serverAPI(tx, recordedAt: reversed) { $0.signedDate = reversed }

    /// An app receipt made at `created`, showing the refund, decoded (signature verified) a day before as-of.
    static func staleAppReceipt(created: Int64) -> EvidenceRecord {
        Fx.offlineReceipt(tx, signature: .verified) {
            $0.cancellationDate = refunded
            $0.receiptCreationDate = created
        }
    }

    /// Apple's verifyReceipt answer for a receipt made at `created`, showing the refund, verified a day before as-of.
    static func staleAnswer(created: Int64) -> EvidenceRecord {
        Fx.verifyReceipt(tx, recordedAt: Fx.asOf - day) {
            $0.cancellationDate = refunded
            $0.receiptCreationDate = created
        }
    }

    static let row = Fx.row("r1", tx: tx, ago: 10 * day)

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "a stale app receipt uploaded after the reversal does not undo it",
            groups: [Fx.group(tx, [row], [signedRefund, signedReversal, staleAppReceipt(created: refunded + day)])],
            expected: []),
        DetectorCase(
            name: "a stale receipt verified after the reversal does not undo it",
            groups: [Fx.group(tx, [row], [signedRefund, signedReversal, staleAnswer(created: refunded + day)])],
            expected: []),
        DetectorCase(
            name: "near miss: a receipt made after the reversal that still shows the refund is Apple's later word",
            groups: [Fx.group(tx, [row], [signedRefund, signedReversal, staleAppReceipt(created: reversed + day)])],
            expected: [ExpectedFinding(.refundedDelivered, tx, users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "a stale receipt (made before the refund) uploaded later never hides Apple's signed refund",
            groups: [
                Fx.group(
                    tx, [row],
                    [
                        signedRefund,
                        Fx.verifyReceipt(tx, recordedAt: Fx.asOf - day) { $0.receiptCreationDate = refunded - day },
                    ])
            ],
            expected: [ExpectedFinding(.refundedDelivered, tx, users: ["u1"], amount: Fx.usd(9_990))]),
        DetectorCase(
            name: "a stale receipt showing an upgrade never hides a later signed full refund",
            groups: [
                Fx.group(
                    tx, [row],
                    [
                        Fx.serverAPI(tx, recordedAt: refunded) {
                            $0.cancellationDate = refunded
                            $0.revocationType = "REFUND_FULL"
                            $0.signedDate = refunded
                        },
                        Fx.verifyReceipt(tx, recordedAt: Fx.asOf - day) {
                            $0.cancellationDate = refunded - 2 * day
                            $0.isUpgraded = true
                            $0.receiptCreationDate = refunded - day
                        },
                    ])
            ],
            expected: [ExpectedFinding(.refundedDelivered, tx, users: ["u1"], amount: Fx.usd(9_990))]),
    ]

    @Test(arguments: cases)
    func ordersByWhenAppleSaidIt(_ testCase: DetectorCase) { testCase.check() }

    /// When each statement speaks: a JWS by `signedDate`, a receipt by its creation date (a cancellation it shows,
    /// as of that cancellation at the earliest), an iOS 6 receipt by its purchase, anything else when recorded.
    @Test func statedAt() {
        #expect(RefundState.statedAt(Self.signedReversal) == Self.reversed)
        #expect(
            RefundState.statedAt(Self.staleAppReceipt(created: Self.refunded + Self.day)) == Self.refunded + Self.day)
        #expect(RefundState.statedAt(Self.staleAnswer(created: Self.refunded - Self.day)) == Self.refunded)
        let iOS6 = Fx.evidence(Self.tx, format: .transactionReceipt, signature: .notChecked)
        #expect(RefundState.statedAt(iOS6) == Fx.asOf - 3 * Self.day)
        let unknown = Fx.verifyReceipt(Self.tx, recordedAt: Fx.asOf - Self.day)
        #expect(RefundState.statedAt(unknown) == Fx.asOf - Self.day)
    }
}
