import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconStorage

/// A night on Citus as on one file (docs/store.md, "The store on Citus"): a 20,000-row export, then the same export
/// with a night's 2,000 new rows; both reports equal SQLite's, and the night judges what changed, not the ledger.
@Suite(.serialized, .citusCluster) struct CitusNightTests {
    let dir = TemporaryDirectory("citus-night")

    static let header =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,"
        + "environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n"

    /// Row `i` of the export: consumables and purchases of `premium`, 700 users, a purchase every six minutes from
    /// 2026-09-01; every twentieth is still pending, every fiftieth undelivered, every 97th booked in the sandbox.
    static func row(_ i: Int) -> String {
        let start = 1_788_220_800  // 2026-09-01T00:00:00Z
        let at = Date(timeIntervalSince1970: TimeInterval(start + i * 360))
        let time = ISO8601DateFormatter().string(from: at)
        let product = i % 5 == 0 ? "premium" : "coins_100"
        let price = product == "premium" ? "9.99" : "0.99"
        let tx = String(4_000_000_000_000 + i)
        let status = i % 20 == 7 ? "pending" : "verified"
        let environment = i % 97 == 5 ? "Sandbox" : "Production"
        let delivered = i % 50 == 3 ? "" : time
        return "r\(i),u\(i % 700),\(product),\(tx),\(tx),\(time),1,\(environment),\(price),USD,USA,\(status),"
            + "\(delivered),\(delivered),\n"
    }

    func reports(_ folder: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(folder)) where name.hasSuffix(".csv") {
            files[name] = try dir.read("\(folder)/\(name)").replacingOccurrences(of: dir.file(folder) + "/", with: "")
        }
        return files
    }

    /// The detect stage's counts in the report's run.json.
    func detect(_ folder: String) throws -> [String: Int] {
        let run =
            try JSONSerialization.jsonObject(with: Data(try dir.read("\(folder)/run.json").utf8)) as? [String: Any]
        let stages = run?["stages"] as? [[String: Any]] ?? []
        return stages.first { $0["name"] as? String == "detect" }?["counts"] as? [String: Int] ?? [:]
    }

    @Test func aNightOfTwoThousandRowsOnTwentyThousandJudgesUnderAQuarter() throws {
        let cluster = try CitusCluster.require()
        let url = try cluster.createDatabase("night")
        let products = try fixturePath("ledger/small-products.csv")
        let export = try dir.write("export.csv", Self.header + (0..<20_000).map(Self.row).joined())
        let night = try dir.write("night.csv", Self.header + (0..<22_000).map(Self.row).joined())
        // The export's last purchase is at 2026-11-23T07:54:00Z; the night's rows come after its as-of.
        let nights = [(export, "2026-11-23T08:00:00Z"), (night, "2026-12-01T16:00:00Z")]
        for (side, store) in [("sqlite", dir.file("night.sqlite")), ("citus", url)] {
            for (index, (file, asOf)) in nights.enumerated() {
                let imported = try runIAPRecon([
                    "import", "--db", store, "--transactions", file, "--products", products,
                ])
                #expect(imported.exitCode == 0, "\(imported.stderr)")
                let report = try runIAPRecon(
                    ["report", "--db", store, "--out", dir.file("\(side)-\(index)"), "--as-of", asOf])
                #expect([0, 3].contains(report.exitCode), "\(report.stderr)")
            }
        }
        for index in 0..<2 {
            let onSQLite = try reports("sqlite-\(index)")
            #expect(onSQLite.count > 5)
            for (name, text) in onSQLite.sorted(by: { $0.key < $1.key }) {
                #expect(try reports("citus-\(index)")[name] == text, "night \(index): \(name) differs on Citus")
            }
        }
        let counts = try detect("citus-1")
        #expect(counts["incremental"] == 1, "\(counts)")
        let judged = counts["transactions_judged"] ?? .max
        #expect(judged < 22_000 / 4, "the night judged \(judged) of 22,000 transactions")
        #expect(judged >= 2_000, "the night's 2,000 new rows are judged: \(judged)")
    }
}
