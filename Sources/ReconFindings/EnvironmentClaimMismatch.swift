import AppleData
import ReconModel
import ReconStorage

/// `ENVIRONMENT_CLAIM_MISMATCH`: the client claimed one environment, the receipt is from another.
///
/// Rule, per uploaded receipt with a `claimed_environment`: the receipt's actual environment is
/// Apple's (the environment of its verifyReceipt answer, or 21007 Sandbox / 21008 Production),
/// else the offline decode's. A mismatch is Production on one side and a test environment
/// (Sandbox, Xcode, LocalTesting) on the other: a client can only claim `Production` or
/// `Sandbox`, so an Xcode receipt claimed as Sandbox is not one. No amount.
public struct EnvironmentClaimMismatch: ReceiptDetector {
    public let code = FindingCode.environmentClaimMismatch

    /// The detector.
    public init() {}

    public func inspect(_ receipt: ReceiptCase, in context: DetectionContext, into findings: inout FindingCollector) {
        guard let claimed = receipt.receipt.claimedEnvironment,
            let (actual, source) = EnvironmentClaimMismatch.actualEnvironment(of: receipt)
        else { return }
        let claimedTest = StoreEnvironment.isTest(claimed)
        let actualTest = StoreEnvironment.isTest(actual)
        guard (claimed.isProduction && actualTest) || (claimedTest && actual.isProduction) else { return }
        findings.report(
            Finding(
                code, transactionID: receipt.findingTransactionID,
                userIDs: receipt.concernedUserIDs, environment: actual,
                message: .claimMismatch(receipt.receipt, claimed: claimed, actual: actual, source: source),
                recordIDs: receipt.records.map(\.recordID), receiptID: receipt.receipt.receiptID))
    }

    /// The receipt's environment and who says so: Apple first, then the offline decode.
    private static func actualEnvironment(of receipt: ReceiptCase) -> (StoreEnvironment, String)? {
        if let apple = receipt.appleEnvironment { return (apple, "Apple") }
        if let status = receipt.appleStatus, let implied = VerifyReceiptStatus.environment(impliedBy: status) {
            return (implied, "Apple (status \(status))")
        }
        // A receipt whose signature or chain failed says nothing (it is INVALID_RECEIPT).
        if receipt.offlineFailure == nil, let decoded = receipt.decoded?.environment {
            return (decoded, "the receipt itself")
        }
        return nil
    }
}

fileprivate extension Finding.Message {
    static func claimMismatch(
        _ receipt: ReceiptHeader, claimed: StoreEnvironment, actual: StoreEnvironment, source: String
    ) -> Self {
        let uploader = receipt.userID.map { " uploaded by user \($0)" } ?? ""
        return Self(
            "Receipt \(receipt.receiptID)\(uploader) was claimed to be from \(claimed) "
                + "but \(source) says \(actual)")
    }
}
