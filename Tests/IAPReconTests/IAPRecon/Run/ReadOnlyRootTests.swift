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

/// `lookup` and `serve` build the composition root with the store opened read-only: a missing
/// store is named and never created, and the root cannot write.
@Suite struct ReadOnlyRootTests {
    let dir = TemporaryDirectory("read-only-root")

    @Test func aReadOnlyRootWithNoStoreNamesThePathAndCreatesNothing() throws {
        let config = ReconConfig.forTesting(databasePath: dir.file("none.sqlite"), outputDirectory: dir.file("out"))
        #expect(throws: StoreError.noStore(path: config.databasePath)) { try config.dependencies(opening: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: config.databasePath))
    }

    @Test func aReadOnlyRootAnswersButCannotImport() async throws {
        let config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        let ledger = try dir.write(
            "t.csv",
            """
            record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status
            r1,u1,premium,t1,1795000000000,9.99,USD,verified

            """)
        _ = try await config.dependencies(at: 1_795_000_000_000).importFiles(ImportRequest(transactions: [ledger]))
        let reader = try config.dependencies(opening: .readOnly)
        let answer = try await reader.answer(.user("u1"))
        #expect(answer.report.charged == 1)
        await #expect(throws: StoreError.self) { try await reader.importFiles(ImportRequest(transactions: [ledger])) }
        let again = try await config.dependencies(opening: .readOnly).answer(.user("u1"))
        #expect(again == answer, "nothing was written")
    }
}
