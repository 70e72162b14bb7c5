import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconStorage

/// Binding one parameter at a time: a string is bound from its own UTF-8, as text, whatever its length or origin.
@Suite struct SQLiteStatementDirectTests {
    let dir = TemporaryDirectory("statement-direct")

    @Test func aStringIsBoundAsItsText() throws {
        let db = try SQLiteDatabase(path: dir.file("s.sqlite"))
        try db.execute("CREATE TABLE t (seq INTEGER, value TEXT)")
        let insert = try db.prepare("INSERT INTO t (seq, value) VALUES ($1, $2)")
        let bridged = NSString(string: "bridged from NSString, long enough to live on the heap") as String
        let values = ["", "USD", "2000000100000001", "héllo, wörld", String(repeating: "x", count: 5_000), bridged]
        for (seq, value) in values.enumerated() {
            try insert.bindInt64(Int64(seq), at: 1)
            try insert.bindText(value, at: 2)
            try insert.runBound()
        }
        let select = try db.prepare("SELECT value, typeof(value) FROM t ORDER BY seq")
        var read: [String] = []
        while try select.step() {
            #expect(select.text(1) == "text", "an empty string is text, not NULL")
            read.append(select.text(0))
        }
        #expect(read == values)
    }
}
