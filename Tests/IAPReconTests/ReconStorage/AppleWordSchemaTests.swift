import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage

/// The migration of Apple's word as of 2026 (`issue45-apple-word-2026`): a store of the version before it upgrades on
/// first use, and what it kept reads the same.
@Suite struct AppleWordSchemaTests {
    /// What undoes the migration: the tables it adds, the columns it adds to `notifications` and `products`.
    static let withoutAppleWord2026 = """
        DROP INDEX notifications_by_type; DROP INDEX notifications_by_app_transaction;
        ALTER TABLE notifications DROP COLUMN external_purchase_id; ALTER TABLE notifications DROP COLUMN app_transaction_id;
        ALTER TABLE notifications DROP COLUMN consumption_request_reason; ALTER TABLE notifications DROP COLUMN learned_at;
        ALTER TABLE products DROP COLUMN sample_content;
        DROP TABLE app_transaction_links; DROP TABLE commitment_periods; DROP TABLE renewal_commitments;
        DROP TABLE consents; DROP TABLE consumption_answers;
        DELETE FROM schema_migrations WHERE name = 'issue45-apple-word-2026';

        """

    @Test func aStoreOfTheVersionBeforeUpgradesAndKeepsItsRows() async throws {
        let fixture = LedgerFixture("apple-word-upgrade")
        try await fixture.importLedger(DistributionKeysTests.rows, header: DistributionKeysTests.header)
        _ = try await fixture.report(asOf: DistributionKeysTests.asOf)
        let path = fixture.dir.file("s.sqlite")
        let before = try ReconStore(path: path)
        let transactions = try before.db.scalar("SELECT COUNT(*) FROM transactions")
        try before.db.execute(Self.withoutAppleWord2026)
        do {
            let old = try SQLiteDatabase(path: path)
            #expect(try !old.tableExists("consents"))
        }
        let store = try ReconStore(path: path)
        #expect(try store.db.tableExists("consents"))
        #expect(try store.db.tableExists("commitment_periods"))
        #expect(try store.db.scalar("SELECT COUNT(*) FROM transactions") == transactions)
        #expect(try store.appleWord.consents().isEmpty)
        #expect(try store.integrityCheck() == "ok")
        let run = try await fixture.report(asOf: DistributionKeysTests.asOf + 86_400_000)
        #expect(run["exit_code"] as? Int == 0)
    }
}
