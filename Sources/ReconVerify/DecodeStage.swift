import AppleData
import Foundation
import Logging
import ReconModel
import ReconStorage

/// Decodes every receipt in the store offline (no network) and keeps its evidence, pending or
/// not, so environment, bundle and product checks cover the whole ledger.
public struct DecodeStage: Sendable {
    public var decoder: ReceiptDecoder

    public init(decoder: ReceiptDecoder) {
        self.decoder = decoder
    }

    /// Decodes receipts not decoded yet (or re-uploaded since), in pages, in `run`; returns how many.
    package func run(store: any VerificationStore, in run: RunContext, logger: Logger) async throws -> Int {
        var decoded = 0
        var cursor: String?
        while true {
            let page = try store.receipts.receiptsNeedingDecode(after: cursor, limit: 1_000)
            guard let last = page.last else { break }
            cursor = last.receiptID
            // Decode concurrently (both cores); persist on this task, one connection.
            let results = await withTaskGroup(of: (Int, Result<ReceiptEvidence, ReceiptDecodingError>).self) { group in
                for (index, receipt) in page.enumerated() {
                    group.addTask { (index, await decoder.decode(receipt)) }
                }
                var results = [Result<ReceiptEvidence, ReceiptDecodingError>?](repeating: nil, count: page.count)
                for await (index, result) in group { results[index] = result }
                return results
            }
            var decodes: [(UploadedReceipt, Result<ReceiptEvidence, ReceiptDecodingError>)] = []
            for (receipt, result) in zip(page, results) {
                guard let result else { continue }
                decodes.append((receipt, result))
                if case .failure(let error) = result {
                    logger.debug(
                        "receipt did not decode",
                        metadata: ["receipt": "\(receipt.receiptID)", "reason": "\(error.reason)"])
                }
            }
            try store.receipts.recordDecodes(decodes, at: run.nowMillis())
            decoded += page.count
        }
        return decoded
    }
}
