import AppStoreTestSigning
import Foundation
import IAPRecon
import IAPReconTestSupport
import Testing

/// `import --notifications`, `--history-days` and `revenue_changes.csv` through the built binary.
@Suite struct NotificationCommandTests {
    let dir = TemporaryDirectory("cli-notifications")

    /// A file with one notification signed by a test authority the command is told to trust,
    /// and one line that is not JSON.
    func notificationFile() throws -> (file: String, root: String) {
        let authority = try SigningAuthority()
        let signedDate: Int64 = 1_795_176_000_000
        let transaction = JWSTransactionDecodedPayload(
            transactionId: "7000", originalTransactionId: "7000", bundleId: "com.example.app", productId: "coins",
            purchaseDate: signedDate - 1_000, quantity: 1, type: "Consumable", inAppOwnershipType: "PURCHASED",
            signedDate: signedDate, environment: "Production", price: 990, currency: "USD")
        let body = NotificationBody(
            notificationType: "ONE_TIME_CHARGE", notificationUUID: "0f4c7d0e-5d7c-4a4e-9c59-8a1f6b2d3e01",
            data: NotificationBody.Payload(
                bundleId: "com.example.app", environment: "Production",
                signedTransactionInfo: try JWSSigner.sign(payload: transaction, authority: authority)),
            signedDate: signedDate)
        let jws = try body.signed(by: authority)
        let file = try dir.write("n.jsonl", "{\"signedPayload\":\"\(jws)\"}\n{not json\n")
        let root = try dir.write("root.pem", authority.rootPEM)
        return (file, root)
    }

    @Test func importVerifiesNotificationsAndKeepsTheBadLine() throws {
        let (file, root) = try notificationFile()
        let arguments = [
            "import", "--db", dir.file("s.sqlite"), "--notifications", file, "--trusted-root", root, "--bundle-id",
            "com.example.app",
        ]
        let result = try runIAPRecon(arguments)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("notifications \(file): read 2, accepted 1, rejected 1"), "\(result.stdout)")
        let strict = try runIAPRecon(arguments + ["--strict"])
        #expect(strict.exitCode == 1)

        // The report (as of now: the store learned the notification at import): the charge the ledger lacks, the
        // bad line, and an empty revenue_changes.csv.
        let report = try runIAPRecon([
            "report", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--bundle-id", "com.example.app",
        ])
        #expect(report.exitCode == 0, "\(report.stderr)")
        #expect(try dir.read("out/discrepancies.csv").contains("MISSING_RECORD,critical,7000,"))
        #expect(try dir.read("out/rejected.csv").contains("\(file),2,,bad JSON"))
        #expect(
            try dir.read("out/revenue_changes.csv")
                == "date,product_id,currency,previous_net,current_net,difference,transaction_ids,reason\r\n")
    }

    @Test(arguments: [
        ["run", "--db", "x.sqlite", "--history-days", "181"], ["verify", "--db", "x.sqlite", "--history-days", "0"],
    ])
    func historyDaysOutsideApplesRetentionIsAUsageError(arguments: [String]) throws {
        let result = try runIAPRecon(arguments, directory: dir.path)
        #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.sqlite")))
    }
}
