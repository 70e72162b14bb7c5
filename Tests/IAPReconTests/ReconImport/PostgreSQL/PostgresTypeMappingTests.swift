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

extension PostgresTests {
    /// Each PostgreSQL type a query may return, read as the exact text a file would hold (CONTRACT §1.7).
    @Suite struct TypeMapping {
        let dir = TemporaryDirectory("pg-types")

        @Test func everyTypeReadsAsItsExactText() async throws {
            let rows = try await PostgresTests.cells(
                """
                SELECT 'a, "b"'::text AS t, 'v'::varchar(5) AS v, 'ab'::char(3) AS c, NULL::text AS n,
                    (-32768)::int2 AS i2, 2147483647::int4 AS i4, (-9223372036854775808)::int8 AS i8,
                    '7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab'::uuid AS u, true AS yes, false AS no,
                    '{"b": [1, 2.50], "a": "x"}'::json AS j, '{"b": [1, 2.50], "a": "x"}'::jsonb AS jb,
                    timestamptz '2026-10-22 12:26:46.123456+00' AS tz, timestamptz '2026-10-22 04:26:46-08' AS tz8,
                    timestamp '2026-10-22 12:26:46' AS ts, 0.99::float8 AS f8, date '2026-10-22' AS d,
                    'infinity'::timestamptz AS inf
                """)
            let row = try #require(rows.first)
            #expect(row["t"] == #"a, "b""#)
            #expect(row["v"] == "v")
            #expect(row["c"] == "ab ")
            #expect(row["n"] == "NULL")
            #expect(row["i2"] == "-32768")
            #expect(row["i4"] == "2147483647")
            #expect(row["i8"] == "-9223372036854775808")
            #expect(row["u"] == "7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab")
            #expect(row["yes"] == "true")
            #expect(row["no"] == "false")
            #expect(row["j"] == #"{"b": [1, 2.50], "a": "x"}"#)
            #expect(row["jb"] == #"{"a": "x", "b": [1, 2.50]}"#)
            #expect(row["tz"] == "2026-10-22T12:26:46.123Z")
            #expect(row["tz8"] == "2026-10-22T12:26:46Z")
            #expect(row["ts"]?.hasPrefix("rejected: no time zone in 'ts'") == true)
            #expect(row["f8"]?.hasPrefix("rejected: inexact number in 'f8'") == true)
            #expect(row["d"]?.hasPrefix("rejected: no time of day in 'd'") == true)
            #expect(row["inf"]?.hasPrefix("rejected: infinite timestamp in 'inf'") == true)
        }

        /// The instant text written digit by digit is ``Timestamp/iso(_:)``'s, and reads back the same.
        @Test(arguments: [
            Int64(0), 1_792_672_006_000, 1_792_672_006_123, 1_792_672_006_001, -1, 4_102_444_799_999,
            253_402_300_799_999,
        ])
        func instantTextIsTimestampsOwn(millis: Int64) {
            var line: [UInt8] = []
            #expect(PostgresCellBytes.appendISO(millis, to: &line))
            let text = String(decoding: line, as: UTF8.self)
            #expect(text == Timestamp.iso(millis))
            #expect(Timestamp.parse(text) == millis)
        }

        /// `numeric` keeps every digit and its scale: never through a binary float.
        @Test(arguments: [
            ("0", "0"), ("0.00", "0.00"), ("-0.5", "-0.5"), ("12.340", "12.340"), ("0.0001", "0.0001"),
            ("90071992547409.993", "90071992547409.993"), ("100000000", "100000000"), ("1e20", "100000000000000000000"),
            ("-123456789.000000001", "-123456789.000000001"), ("10000.0001", "10000.0001"),
            ("0.000000000001", "0.000000000001"),
            ("NaN", "rejected: bad number in 'x': NaN or infinity is not an amount"),
        ])
        func numericIsExact(literal: String, text: String) async throws {
            let rows = try await PostgresTests.cells("SELECT '\(literal)'::numeric AS x")
            #expect(rows.first?["x"] == text)
        }

        /// A ledger mapped from the backend's own types: every field as a file would give it.
        @Test func ledgerFieldsFromTypedColumns() async throws {
            let store = try PostgresTests.store(dir)
            let source = try PostgresTests.source([
                (
                    .transactions,
                    """
                    SELECT 1001::int8 AS record_id, '7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab'::uuid AS user_id,
                        'coins'::varchar AS product_id, 2000001::int8 AS transaction_id,
                        NULL::text AS original_transaction_id,
                        timestamptz '2026-10-22 04:26:46.5-08' AS purchase_date, 3::int2 AS quantity,
                        'Sandbox' AS environment, 90071992547.409::numeric(20,3) AS price, 'KWD'::char(3) AS currency,
                        'kwt' AS storefront, 'pending' AS verification_status,
                        timestamptz '2026-10-22 12:27:00+00' AS delivered_at, NULL::timestamptz AS finished_at,
                        'rc-1' AS receipt_id
                    UNION ALL
                    SELECT 1002, '00000000-0000-0000-0000-000000000002', 'coins', 2000002, NULL,
                        timestamptz '2026-10-22 12:26:46+00', 1, 'Production', 0.99, 'USD', 'USA', 'verified', NULL,
                        NULL, NULL
                    ORDER BY 1
                    """
                )
            ])
            let summaries = try await PostgresTests.importing(source, into: store)
            #expect(
                summaries.map(\.line) == [
                    "transactions \(source.name) transactions-query: read 2, accepted 2, rejected 0"
                ])
            let rows = try PostgresTests.ledger(store)
            #expect(
                rows.first
                    == LedgerTransaction(
                        recordID: "1001", userID: "7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab", productID: "coins",
                        transactionID: "2000001", originalTransactionID: nil, purchaseDate: 1_792_672_006_500,
                        quantity: 3, environment: .sandbox,
                        price: Money(milliunits: 90_071_992_547_409, currency: "KWD"),
                        storefront: "KWT", verificationStatus: .pending, deliveredAt: 1_792_672_020_000,
                        finishedAt: nil,
                        receiptID: "rc-1"))
            #expect(rows.last?.price == Money(milliunits: 990, currency: "USD"))
            #expect(rows.last?.originalTransactionID == "2000002")
        }

        /// The backend's entitlement table (CONTRACT §1.8) read through `--entitlements-query`: the same fields and
        /// judge as a file's rows.
        @Test func entitlementsFromTypedColumns() async throws {
            let store = try PostgresTests.store(dir, "entitlements.sqlite")
            let source = try PostgresTests.source([
                (
                    .entitlements,
                    """
                    SELECT '7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab'::uuid AS user_id,
                        2000000111::int8 AS original_transaction_id, 'pro_monthly'::varchar AS product_id,
                        timestamptz '2026-12-01 02:00:00-08' AS expires_at, 'Production' AS environment,
                        timestamptz '2026-11-01 10:00:00+00' AS updated_at
                    UNION ALL
                    SELECT '00000000-0000-0000-0000-000000000002', 2000000222, 'pro_monthly',
                        NULL, NULL, NULL
                    """
                )
            ])
            let summaries = try await PostgresTests.importing(source, into: store)
            #expect(
                summaries.map(\.line) == [
                    "entitlements \(source.name) entitlements-query: read 2, accepted 1, rejected 1"
                ])
            #expect(
                try store.entitlements.entitlements() == [
                    Entitlement(
                        userID: "7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab", originalTransactionID: "2000000111",
                        productID: "pro_monthly", expiresAt: 1_796_119_200_000, environment: .production,
                        updatedAt: 1_793_527_200_000)
                ])
            #expect(try store.ledger.rejectedRows().first?.reason == "missing required field 'expires_at'")
        }

        /// A `timestamp` without time zone is a rejected row naming the option, its position and id.
        @Test func timestampWithoutTimeZoneIsARejectedRow() async throws {
            let store = try PostgresTests.store(dir)
            let source = try PostgresTests.source([
                (
                    .transactions,
                    """
                    SELECT 'r' || g AS record_id, 'u' AS user_id, 'p' AS product_id, g AS transaction_id,
                        timestamptz '2026-10-22 12:26:46+00' AS purchase_date,
                        CASE WHEN g = 2 THEN timestamp '2026-10-22 12:26:46' END AS delivered_at,
                        'verified' AS verification_status
                    FROM generate_series(1, 2) AS g ORDER BY g
                    """
                )
            ])
            let summaries = try await PostgresTests.importing(source, into: store)
            #expect(summaries.first?.read == 2)
            #expect(summaries.first?.accepted == 1)
            #expect(summaries.first?.rejected == 1)
            let rejected = try store.ledger.rejectedRows()
            #expect(rejected.count == 1)
            #expect(rejected.first?.source == "\(source.name) transactions-query")
            #expect(rejected.first?.line == 2)
            #expect(rejected.first?.recordID == "r2")
            #expect(rejected.first?.reason.hasPrefix("no time zone in 'delivered_at'") == true)
        }

        /// Receipts with `jsonb` data and a catalog with `numeric` prices come in as files' rows do;
        /// a notification row that fails verification is a rejected row with its reason.
        @Test func receiptsProductsAndNotifications() async throws {
            let store = try PostgresTests.store(dir)
            let source = try PostgresTests.source([
                (
                    .products,
                    "SELECT 'coins' AS product_id, 'consumable' AS type, 0.99::numeric AS price, 'USD' AS currency"
                ),
                (
                    .receipts,
                    """
                    SELECT 'rc-1' AS receipt_id, 'signed-transaction' AS format, 'a.b.c'::text AS data,
                        timestamptz '2026-10-22 12:26:46+00' AS received_at, 'u1'::text AS user_id
                    """
                ),
                (
                    .notifications,
                    "SELECT 'not-a-jws' AS \"signedPayload\", timestamptz '2026-10-22 12:26:46+00' AS received_at"
                ),
            ])
            let summaries = try await PostgresTests.importing(source, into: store)
            #expect(summaries.map(\.kind) == ["products", "receipts", "notifications"])
            #expect(summaries.map(\.read) == [1, 1, 1])
            #expect(summaries.map(\.accepted) == [1, 1, 0])
            #expect(try store.ledger.catalog()["coins"]?.first?.price == Money(milliunits: 990, currency: "USD"))
            #expect(try store.ledger.counts().receipts == 1)
            let rejected = try store.ledger.rejectedRows()
            #expect(rejected.map(\.source) == ["\(source.name) notifications-query"])
            #expect(rejected.first?.line == 1)
        }
    }
}
