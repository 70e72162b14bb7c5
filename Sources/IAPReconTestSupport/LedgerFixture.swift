import Foundation
import IAPRecon

/// A store in a temporary directory, fed ledger rows and reported as of chosen times, as successive nightly runs
/// would leave it.
public struct LedgerFixture: Sendable {
    /// The ledger columns the rows give, in order.
    public static let header =
        "record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,delivered_at,finished_at"

    /// The directory holding the store (`s.sqlite`), the ledger file and the report folder (`out`).
    public let dir: TemporaryDirectory

    /// A fixture in a fresh directory named after `label`.
    public init(_ label: String) {
        dir = TemporaryDirectory(label)
    }

    /// The configuration every step uses: the store and report folder in ``dir``.
    public var config: ReconConfig {
        ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
    }

    /// Imports `rows` (after `header`, ``header`` unless given) into the store, creating it when absent.
    public func importLedger(_ rows: [String], header: String = Self.header) async throws {
        let path = try dir.write("t.csv", ([header] + rows).joined(separator: "\n") + "\n")
        _ = try await config.dependencies(at: 0).importFiles(ImportRequest(transactions: [path]))
    }

    /// Reports as of `asOf` ("now" pinned there) and returns the run's `run.json` (empty when it is not an object).
    public func report(asOf: Int64) async throws -> [String: Any] {
        var config = config
        config.asOf = asOf
        _ = try await config.dependencies(at: asOf, opening: .existing).report()
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("out/run.json")))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
