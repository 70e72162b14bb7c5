import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconStorage

/// The password file libpq reads, read the same way: first matching line, `*` wildcards, `\:` escapes, and
/// ignored unless only its owner may read it.
@Suite struct PGPassTests {
    let dir = TemporaryDirectory("pgpass")

    func file(_ text: String, mode: Int = 0o600) throws -> [String: String] {
        let path = try dir.write("pgpass", text)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return ["PGPASSFILE": path]
    }

    @Test func theFirstMatchingLineWins() throws {
        let environment = try file(
            """
            # a comment
            db.internal:5432:iap:support_ro:not-this-user
            db.internal:*:iap:recon:first
            *:*:*:recon:second
            other:5432:iap:recon:p\\:w\\\\d
            """)
        func password(_ host: String, _ port: Int, _ user: String) -> String? {
            PGPass.password(host: host, port: port, database: "iap", user: user, environment: environment)
        }
        #expect(password("db.internal", 6543, "recon") == "first")
        #expect(password("elsewhere", 5432, "recon") == "second")
        #expect(password("db.internal", 5432, "nobody") == nil)
        #expect(PGPass.split("other:5432:iap:recon:p\\:w\\\\d") == ["other", "5432", "iap", "recon", "p:w\\d"])
    }

    @Test func aFileOthersMayReadIsIgnored() throws {
        let environment = try file("*:*:*:*:secret\n", mode: 0o644)
        #expect(PGPass.password(host: "h", port: 5432, database: "d", user: "u", environment: environment) == nil)
    }

    @Test func theURLAndPGPASSWORDComeFirst() throws {
        var environment = try file("*:*:*:*:from-file\n")
        let url = "postgresql://recon@db.internal:5432/iap"
        #expect(try DatabaseSource(url: url, environment: environment).password == "from-file")
        environment["PGPASSWORD"] = "from-variable"
        #expect(try DatabaseSource(url: url, environment: environment).password == "from-variable")
        let withPassword = "postgresql://recon:in-url@db.internal:5432/iap"
        #expect(try DatabaseSource(url: withPassword, environment: environment).password == "in-url")
        #expect(try DatabaseSource(url: url, environment: [:]).password == nil)
    }
}
