import Foundation
import IAPReconTestSupport
import Logging
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

/// Opening the suite's server as a source, and importing its queries into a store.
extension PostgresTests {
    /// A source on the suite's server with `queries`.
    static func source(
        _ queries: [(InputKind, String)], database: String = "postgres", sslmode: String = "disable",
        password: String? = nil
    ) throws -> DatabaseSource {
        let server = try PostgresServer.require()
        var url = server.url(database: database, sslmode: sslmode)
        if let password { url = url.replacingOccurrences(of: ":" + server.password + "@", with: ":" + password + "@") }
        var source = try DatabaseSource(url: url, environment: [:])
        source.queries = queries.map { ($0.0, $0.1) }
        return source
    }

    static let logger = Logger.quiet

    /// The notification check of the tests: no trusted root, so a notification is rejected with its reason.
    static let notifications = NotificationImporter(
        check: NotificationCheck(trust: TrustStore(roots: []), bundleIDs: ["com.example.game"]))

    /// Opens `source`, imports every query into `store` and closes it.
    static func importing(
        _ source: DatabaseSource, into store: ReconStore, importer: Importer = Importer()
    ) async throws -> [ImportFileSummary] {
        let database = try await LedgerDatabase.open(source, logger: logger)
        do {
            let summaries = try await DatabaseImporter(importer: importer, notifications: notifications)
                .run(database, into: store, in: .unrecorded(clock: SystemClock()))
            await database.close()
            return summaries
        } catch {
            await database.close()
            throw error
        }
    }

    /// The text of every cell of every row of `sql`, as the import reads it (a rejection's reason
    /// in place of a value it refuses).
    static func cells(_ sql: String) async throws -> [[String: String]] {
        let database = try await LedgerDatabase.open(try source([(.products, sql)]), logger: logger)
        var rows: [[String: String]] = []
        do {
            try await database.forEachRow(ofQuery: 0) { row in
                var values: [String: String] = [:]
                for cell in row {
                    do throws(RowRejection) {
                        values[cell.columnName] = try PostgresCellText.text(cell) ?? "NULL"
                    } catch {
                        values[cell.columnName] = "rejected: " + error.reason
                    }
                }
                rows.append(values)
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        return rows
    }

    /// Every ledger row of `store`, by record id.
    static func ledger(_ store: ReconStore) throws -> [LedgerTransaction] {
        var rows: [LedgerTransaction] = []
        try store.ledger.forEachTransactionGroup { rows += $0.records }
        return rows.sorted { $0.recordID < $1.recordID }
    }

    /// A table `name` of ledger rows (the fields' own types) holding `count` generated purchases.
    static func makeLedgerTable(_ name: String, rows count: Int) throws {
        try PostgresServer.require().psql(
            """
            DROP TABLE IF EXISTS \(name);
            CREATE TABLE \(name) (
                id bigint PRIMARY KEY, account uuid NOT NULL, sku varchar(64) NOT NULL, apple_id bigint NOT NULL,
                purchased_at timestamptz NOT NULL, qty smallint NOT NULL DEFAULT 1, sandbox boolean NOT NULL DEFAULT false,
                amount numeric(12,2), currency char(3), state text NOT NULL, delivered_at timestamptz);
            INSERT INTO \(name)
            SELECT g, md5(g::text)::uuid, 'coins_' || (g % 3), 2000000000 + g,
                timestamptz '2026-10-01 00:00:00+00' + g * interval '1 minute', 1 + g % 2, g % 50 = 0,
                0.99 + (g % 5), 'USD', 'verified', timestamptz '2026-10-01 00:00:05+00' + g * interval '1 minute'
            FROM generate_series(1, \(count)) AS g;
            """)
    }

    /// The query that maps ``makeLedgerTable(_:rows:)``'s table to the ledger's fields.
    static func ledgerQuery(_ table: String) -> String {
        """
        SELECT id AS record_id, account AS user_id, sku AS product_id, apple_id AS transaction_id,
            purchased_at AS purchase_date, qty AS quantity,
            CASE WHEN sandbox THEN 'Sandbox' ELSE 'Production' END AS environment,
            amount AS price, currency, state AS verification_status, delivered_at
        FROM \(table) ORDER BY id
        """
    }

    /// A new store in `dir`.
    static func store(_ dir: TemporaryDirectory, _ name: String = "store.sqlite") throws -> ReconStore {
        try ReconStore(path: dir.file(name), clock: ManualClock(millis: 1_795_176_000_000))
    }
}
