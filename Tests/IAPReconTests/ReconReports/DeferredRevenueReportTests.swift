import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconFindings
@testable import ReconModel
@testable import ReconReports

/// `deferred_revenue.csv`, `revenue_schedule.csv` and the `Deferred Revenue` sheet from a store (CONTRACT §5, §5.1):
/// a ledger and a catalog whose `duration` states the passes' periods (§1.3), closed at a month end.
@Suite struct DeferredRevenueReportTests {
    let dir = TemporaryDirectory("deferred-revenue")
    static let monthEnd = Timestamp.parse("2026-12-01T00:00:00Z") ?? 0

    static let products = """
        product_id,type,price,currency,storefront,proceeds_rate,duration
        pass_month,non-renewing,3.00,USD,,0.70,P1M
        pass_year,non-renewing,36.50,USD,,,P1Y
        coins,consumable,0.99,USD,,,
        pass_fortnight,non-renewing,1.00,USD,,,P2W

        """

    /// A monthly pass bought mid-October, a yearly pass bought on 2026-11-20, a consumable.
    static let ledger = """
        record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id
        r1,u1,pass_month,2000000101,,2026-10-16T00:00:00Z,1,Production,3.00,USD,USA,verified,2026-10-16T00:00:02Z,2026-10-16T00:00:03Z,
        r2,u2,pass_year,2000000102,,2026-11-20T13:05:00Z,1,Production,36.50,USD,USA,verified,2026-11-20T13:05:02Z,2026-11-20T13:05:03Z,
        r3,u3,coins,2000000103,,2026-11-02T08:00:00Z,1,Production,0.99,USD,USA,verified,2026-11-02T08:00:02Z,2026-11-02T08:00:03Z,

        """

    func importAndReport(
        asOf: Int64, basis: RecognitionBasis, out: String
    ) async throws -> ReconDependencies {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file(out))
        config.recognitionBasis = basis
        config.asOf = asOf
        let deps = try config.dependencies(at: asOf)
        if !FileManager.default.fileExists(atPath: dir.file("t.csv")) {
            let outcome = try await deps.importFiles(
                ImportRequest(
                    transactions: [try dir.write("t.csv", Self.ledger)],
                    products: [try dir.write("p.csv", Self.products)]
                ))
            #expect(outcome.lines.first?.hasSuffix("p.csv: read 4, accepted 3, rejected 1") == true, "\(outcome.lines)")
        }
        _ = try await deps.report()
        return deps
    }

    @Test func theMonthEndCloseRecognizesEachPassOverItsCatalogDuration() async throws {
        _ = try await importAndReport(asOf: Self.monthEnd, basis: .customerPrice, out: "close")
        // 3.00 over 2026-10-16 → 2026-11-16 (31 days): October holds 16 of them, 1.548… → 1.55.
        // 36.50 over a year from 2026-11-20T13:05Z: November holds 10 days 10 h 55 min of 365 days, 1.045… → 1.05.
        // The as-of's month is reported to its first instant: December opens with what stays deferred.
        #expect(
            try dir.read("close/deferred_revenue.csv") == """
                month,product_id,currency,opening_deferred,billings,recognized,refunds_released,refunds_reversed,\
                closing_deferred,net_revenue\r
                2026-10,pass_month,USD,0.00,3.00,1.55,0.00,0.00,1.45,1.55\r
                2026-11,coins,USD,0.00,0.99,0.99,0.00,0.00,0.00,0.99\r
                2026-11,pass_month,USD,1.45,0.00,1.45,0.00,0.00,0.00,1.45\r
                2026-11,pass_year,USD,0.00,36.50,1.05,0.00,0.00,35.45,1.05\r
                2026-12,pass_year,USD,35.45,0.00,0.00,0.00,0.00,35.45,0.00\r

                """)
        #expect(
            try dir.read("close/revenue_schedule.csv") == """
                transaction_id,original_transaction_id,user_id,product_id,currency,amount,service_start,service_end,\
                recognized,refunded,deferred,period_source\r
                2000000101,2000000101,u1,pass_month,USD,3.00,2026-10-16T00:00:00Z,2026-11-16T00:00:00Z,3.00,0.00,0.00,\
                catalog\r
                2000000102,2000000102,u2,pass_year,USD,36.50,2026-11-20T13:05:00Z,2027-11-20T13:05:00Z,1.05,0.00,35.45,\
                catalog\r
                2000000103,2000000103,u3,coins,USD,0.99,2026-11-02T08:00:00Z,,0.99,0.00,0.00,point-in-time\r

                """)
        // A duration App Store Connect does not offer is a rejected catalog row naming the file, line and field.
        let rejected = try dir.read("close/rejected.csv")
        #expect(
            rejected.contains(
                #"p.csv,5,pass_fortnight,"bad value in 'duration': 'P2W' (expected P1W, P1M, P2M, P3M, P6M or P1Y)""#))
    }

    @Test func theProceedsBasisIsTheDefaultAndDefersTheProceeds() async throws {
        #expect(ReconConfig(databasePath: "").recognitionBasis == .proceeds)
        _ = try await importAndReport(asOf: Self.monthEnd, basis: .proceeds, out: "proceeds")
        let lines = try dir.read("proceeds/deferred_revenue.csv").components(separatedBy: "\r\n")
        // 36.50 × 0.70 = 25.55 billed; 0.99 × 0.70 = 0.693 → 0.69.
        #expect(lines.contains("2026-11,pass_year,USD,0.00,25.55,0.73,0.00,0.00,24.82,0.73"))
        #expect(lines.contains("2026-11,coins,USD,0.00,0.69,0.69,0.00,0.00,0.00,0.69"))
    }

    @Test func aLaterReportShowsTheClosedMonthsAsTheMonthEndDidAndRestatesNothing() async throws {
        _ = try await importAndReport(asOf: Self.monthEnd, basis: .customerPrice, out: "close")
        let later = Timestamp.parse("2026-12-15T00:00:00Z") ?? 0
        _ = try await importAndReport(asOf: later, basis: .customerPrice, out: "later")
        func closed(_ folder: String) throws -> [String] {
            try dir.read(folder + "/deferred_revenue.csv").components(separatedBy: "\r\n")
                .filter { $0.hasPrefix("2026-10") || $0.hasPrefix("2026-11") }
        }
        #expect(try closed("close") == closed("later"))
        #expect(try closed("later").count == 4)
        let run = try dir.read("later/run.json")
        #expect(!run.contains("deferred_revenue_restated"))
        // December as of its 15th: 14 days of the yearly pass, 36.50 × (14 d + 10 h 55 min) / 365 d cumulated, less
        // November's 1.05.
        let december = try dir.read("later/deferred_revenue.csv").components(separatedBy: "\r\n").last { !$0.isEmpty }
        #expect(december == "2026-12,pass_year,USD,35.45,0.00,1.40,0.00,0.00,34.05,1.40")
    }

    @Test func theSheetShowsTheRollForwardByMonthAndCurrencyAndTheWaterfall() async throws {
        _ = try await importAndReport(asOf: Self.monthEnd, basis: .customerPrice, out: "close")
        let archive = try XLSXArchive(path: dir.file("close/reconciliation.xlsx"))
        let sheet = try archive.csv(sheet: 3).components(separatedBy: "\n")
        #expect(sheet.first?.hasPrefix("\"Deferred revenue, recognized as the service is delivered") == true)
        #expect(sheet.contains { $0.hasPrefix("2026-11,USD,\"1.45 {#,##0.00}\",\"37.49 {#,##0.00}\",\"3.49 {") })
        #expect(sheet.contains("Month billed,Billed,2026-10,2026-11,2026-12,Recognized to date,Refunded,Remaining"))
        // Billed in October: 1.55 in October, 1.45 in November, nothing left.
        #expect(sheet.contains { $0.hasPrefix("2026-10,\"3 {#,##0.00}\",\"1.55 {#,##0.00}\",\"1.45 {#,##0.00}\"") })
    }
}
