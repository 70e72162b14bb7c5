import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconStorage

/// Many rows to a statement (a first report's parts, events and sales): every row added is in the table, in the
/// order added, with the values a one-row INSERT would write, once the batch is flushed; a full batch is written as
/// soon as it fills.
@Suite struct SQLiteRowBatchTests {
    let dir = TemporaryDirectory("row-batch")
    let insert = RowInsert(into: "t", ["seq", "value", "amount"])

    func database() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: dir.file("s.sqlite"))
        try db.execute("CREATE TABLE t (seq INTEGER NOT NULL, value TEXT, amount INTEGER)")
        return db
    }

    func rows(_ db: SQLiteDatabase) throws -> [String] {
        let select = try db.prepare(
            "SELECT seq, quote(value), typeof(value), quote(amount) FROM t ORDER BY rowid")
        var read: [String] = []
        while try select.step() {
            read.append("\(select.int64(0)) \(select.text(1)) \(select.text(2)) \(select.text(3))")
        }
        return read
    }

    @Test func rowsAddedInBatchesAreWrittenInOrderWithTheirValues() throws {
        let db = try database()
        let batch = try SQLiteRowBatch(insert, rowsPerRun: 4, database: db)
        let texts = ["", "USD", "it's", "héllo, wörld", String(repeating: "x", count: 3_000)]
        var expected: [String] = []
        for seq in 0..<10 {
            try batch.bindInt64(Int64(seq), at: 1)
            if seq % 3 == 0 {
                try batch.bindNull(at: 3)
            } else {
                try batch.bindInt64(Int64(seq) * 1_000, at: 3)
            }
            let text = texts[seq % texts.count]
            try batch.runBinding(texts: [(text, 2)])
            let quoted = "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            expected.append("\(seq) \(quoted) text \(seq % 3 == 0 ? "NULL" : String(seq * 1_000))")
        }
        // Two full batches are written; the last two rows wait for the flush.
        #expect(try rows(db) == Array(expected.prefix(8)))
        try batch.flush()
        #expect(try rows(db) == expected)
        // Flushing again writes nothing twice.
        try batch.flush()
        #expect(try rows(db).count == 10)
    }

    @Test func rowsBoundAsValuesAndFromBytesAreCopies() throws {
        let db = try database()
        let batch = try SQLiteRowBatch(insert, rowsPerRun: 64, database: db)
        try batch.run([.integer(1), .text("from values"), .null])
        do {
            // The caller's bytes are gone before the batch runs.
            var bytes = Array("from bytes".utf8)
            try batch.bindInt64(2, at: 1)
            try bytes.withUnsafeBufferPointer { try batch.bindText($0.baseAddress!, count: $0.count, at: 2) }
            try batch.bindInt64(7, at: 3)
            try batch.runBound()
            bytes.replaceSubrange(0..<4, with: Array("XXXX".utf8))
        }
        try batch.flush()
        #expect(try rows(db) == ["1 'from values' text NULL", "2 'from bytes' text 7"])
    }

    @Test func aRowTheTableRefusesFailsTheRunThatWritesIt() throws {
        let db = try database()
        let batch = try SQLiteRowBatch(insert, rowsPerRun: 2, database: db)
        try batch.run([.integer(1), .text("kept"), .null])
        try batch.bindNull(at: 1)  // seq is NOT NULL
        try batch.bindText("refused", at: 2)
        try batch.bindNull(at: 3)
        #expect(throws: StoreError.self) { try batch.runBound() }
        #expect(try rows(db).isEmpty, "the statement fails as a whole")
    }
}
