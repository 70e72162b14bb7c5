import Foundation
import Testing

@testable import AppStoreSimulator
@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The simulator's signed transactions tell the truth in time: one Apple signs at T shows a refund only once it was
/// made, and no longer once Apple reversed it ("Apple's latest signed word": after a reversal Apple signs the
/// transaction again without `revocationDate`,
/// https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload).
@Suite struct SimulatedSignedTransactionTimeTests {
    typealias T = SimulatedVerifyReceiptTimeTests

    static func payload(_ id: String, at: Int64) throws -> SimulatedServerAPI.TransactionPayload {
        let store = try SimulatorStore(T.seed)
        let transaction = try #require(T.seed.transactions.first { $0.transactionId == id })
        return SimulatedServerAPI.payload(
            transaction, store: store, now: Date(timeIntervalSince1970: Double(at) / 1000))
    }

    @Test func aRefundShowsOnlyFromTheMomentItWasMadeUntilItWasReversed() throws {
        #expect(try Self.payload("5002", at: T.refundedAt - 1).revocationDate == nil)
        let refunded = try Self.payload("5002", at: T.refundedAt + T.day)
        #expect(refunded.revocationDate == T.refundedAt && refunded.revocationType == "REFUND_FULL")
        let reversed = try Self.payload("5002", at: T.reversedAt + 1)
        #expect(reversed.revocationDate == nil && reversed.revocationType == nil)
        #expect(reversed.signedDate == T.reversedAt + 1)
    }

    @Test func anUpgradeShowsOnlyOnceTheNewPlanWasBought() throws {
        #expect(try Self.payload("5000", at: T.upgradedAt - 1).isUpgraded == nil)
        #expect(try Self.payload("5000", at: T.upgradedAt).isUpgraded == true)
    }
}
