import Foundation
import IAPReconTestSupport
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

/// Real Apple-signed receipts through import → offline decode → detect → report, without the
/// network: a real Sandbox receipt booked as Production is SANDBOX_IN_PRODUCTION, and the same
/// receipt with one changed byte is INVALID_RECEIPT on a row already marked verified.
@Suite struct RealReceiptPipelineTests {
    let dir = TemporaryDirectory("real-receipts")

    @Test func realSandboxReceiptAndAForgedCopy() async throws {
        let genuine = try ReceiptFixtures.text("real-receipts/nutcall-sandbox-sha1-187.b64")
            .replacingOccurrences(of: "\n", with: "")
        var bytes = try #require(ReceiptBase64.decode(genuine, alphabet: .standard))
        let needle = Array("com.nutcallalert.inapp.optimum".utf8)
        let at = try #require(
            (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        bytes[at + needle.count - 1] ^= 0x01  // "optimum" → "optimul": still a receipt, no longer Apple's
        let forged = Data(bytes).base64EncodedString()

        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,environment,price,currency,verification_status,delivered_at,finished_at,receipt_id
            r1,u1,com.nutcallalert.inapp.pro,1000000637840752,1575982498000,Production,0.99,USD,verified,1575982499000,1575982500000,rc-real
            r2,u2,com.nutcallalert.inapp.pro,1000000999999999,1575982498000,Production,0.99,USD,verified,1575982499000,1575982500000,rc-forged

            """
        let receipts = """
            {"receipt_id":"rc-real","user_id":"u1","received_at":1588789800000,"format":"app-receipt","data":"\(genuine)"}
            {"receipt_id":"rc-forged","user_id":"u2","received_at":1588789800000,"format":"app-receipt","data":"\(forged)"}

            """
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.nutcall.alert"]
        _ = try await config.dependencies(at: 1_795_000_000_000).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)], receipts: [try dir.write("r.jsonl", receipts)]))
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        let lines = try dir.read("out/discrepancies.csv").split(separator: "\r\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("SANDBOX_IN_PRODUCTION,high,1000000637840752,") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("INVALID_RECEIPT,high,1000000999999999,") && $0.contains("rc-forged") },
            "\(lines)")
        // The genuine receipt is Sandbox: none of its 187 entries is a paid purchase missing from the ledger.
        #expect(!lines.contains { $0.hasPrefix("MISSING_RECORD") })
    }
}
