import Foundation
import Testing

@testable import AppStoreTestSigning
@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// Receipts the simulator and demo hand out read back through the real decoder.
@Suite struct AppReceiptBuilderTests {
    @Test func builtReceiptDecodesAndVerifiesUnderItsOwnRoot() async throws {
        let authority = try SigningAuthority()
        let data = try AppReceiptBuilder.base64Receipt(
            bundleID: "com.example.app", receiptType: "ProductionSandbox", createdAt: 1_795_000_000_000,
            purchases: [
                .init(productID: "gems", quantity: 3, transactionID: "7001", purchaseDate: 1_794_999_000_000),
                .init(
                    productID: "pro", transactionID: "7002", originalTransactionID: "7000",
                    purchaseDate: 1_794_998_000_000, cancellationDate: 1_794_999_500_000),
            ], authority: authority)
        let trust = TrustStore.apple.adding([authority.root])
        let evidence = try await AppReceiptDecoder(trust: trust).decode(data).get()
        #expect(evidence.signature == .verified, "\(evidence.signatureDetail ?? "")")
        #expect(evidence.environment == .sandbox)
        #expect(evidence.bundleID == "com.example.app")
        #expect(evidence.entries.map(\.transactionID) == ["7001", "7002"])
        #expect(evidence.entries.first?.quantity == 3)
        #expect(evidence.entries.last?.originalTransactionID == "7000")
        #expect(evidence.entries.last?.cancellationDate == 1_794_999_500_000)
        let untrusted = try await AppReceiptDecoder().decode(data).get()
        #expect(untrusted.signature == .untrusted)
    }
}
