import Testing

@testable import ReconStorage

/// An INSERT declared by its parts: the one-row statement both engines run, and the batches PostgreSQL's store
/// composes from the same parts.
struct RowInsertTests {
    @Test func rowsAreNumberedAfterTheRowsBeforeThem() {
        let insert = RowInsert(
            into: "t", ["a", "b"], constants: [("c", "7"), ("d", "'valid'")], onConflict: .doNothing(target: nil))
        #expect(insert.sql == "INSERT INTO t (a, b, c, d) VALUES ($1, $2, 7, 'valid') ON CONFLICT DO NOTHING")
        #expect(
            insert.statement(rows: 3)
                == "INSERT INTO t (a, b, c, d) VALUES ($1, $2, 7, 'valid'), ($3, $4, 7, 'valid'), ($5, $6, 7, 'valid') "
                + "ON CONFLICT DO NOTHING")
        #expect(insert.keyParameters == nil)
        #expect(insert.maximumRows == 1_000)
    }

    @Test func anUpsertIsKeyedByItsConflictTarget() {
        let insert = RowInsert(
            into: "p", ["product_id", "storefront", "price"],
            onConflict: .update(target: ["storefront", "product_id"], set: "price = excluded.price"))
        #expect(
            insert.sql
                == "INSERT INTO p (product_id, storefront, price) VALUES ($1, $2, $3) "
                + "ON CONFLICT (storefront, product_id) DO UPDATE SET price = excluded.price")
        #expect(insert.keyParameters == [2, 1])
        #expect(insert.copyColumns == nil)
    }

    /// A plain INSERT of bound values goes by `COPY`; one with a conflict clause or a constant keeps its INSERT.
    @Test func onlyAPlainInsertOfItsParametersGoesByCopy() {
        #expect(RowInsert(into: "t", ["a", "b", "c"]).copyColumns == ["a", "b", "c"])
        #expect(RowInsert(into: "t", ["a"], onConflict: .doNothing(target: ["a"])).copyColumns == nil)
        #expect(RowInsert(into: "t", ["a"], constants: [("b", "0")]).copyColumns == nil)
    }

    /// COPY's text format: tabs between values, `\N` for NULL, and a backslash, tab, line feed or carriage return in
    /// a text escaped (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"); other bytes as they are.
    @Test func copyRowsEscapeWhatTheTextFormatReads() {
        var rows = PostgresCopyRows(table: "t", columns: ["a", "b", "c"])
        rows.append([.integer(-42), .null, .text("back\\slash\ttab\nline\rreturn é \\N")])
        rows.append([.text(""), .text("N"), .integer(0)])
        #expect(
            String(decoding: rows.data, as: UTF8.self)
                == "-42\t\\N\tback\\\\slash\\ttab\\nline\\rreturn é \\\\N\n\tN\t0\n")
        #expect(rows.rows == 2)
    }

    /// Rows of two tables interleaved still go in batches; a second statement of the same table sends the first's
    /// rows before its own; a repeated conflict key starts a new batch.
    @Test func pendingRowsKeepEachTablesOrder() {
        let parts = RowInsert(into: "parts", ["a", "b"])
        let sales = RowInsert(into: "sales", ["id", "n"], onConflict: .update(target: ["id"], set: "n = excluded.n"))
        let otherParts = RowInsert(into: "parts", ["a"])
        var pending = PostgresPendingRows()
        #expect(pending.add(parts, owner: 1, values: [.integer(1), .text("x")]).isEmpty)
        #expect(pending.add(sales, owner: 2, values: [.text("s1"), .integer(1)]).isEmpty)
        #expect(pending.add(parts, owner: 1, values: [.integer(2), .text("y")]).isEmpty)
        #expect(pending.add(sales, owner: 2, values: [.text("s2"), .integer(2)]).isEmpty)
        let repeated = pending.add(sales, owner: 2, values: [.text("s1"), .integer(3)])
        #expect(
            repeated.map(\.sql) == [
                "INSERT INTO sales (id, n) VALUES ($1, $2), ($3, $4) ON CONFLICT (id) DO UPDATE SET n = excluded.n"
            ])
        let sameTable = pending.add(otherParts, owner: 3, values: [.integer(9)])
        #expect(sameTable.map(\.sql) == ["COPY parts (a, b) FROM STDIN"])
        #expect(sameTable.first?.copy.map { String(decoding: $0.data, as: UTF8.self) } == "1\tx\n2\ty\n")
        #expect(
            pending.takeAll().map(\.sql) == [
                "INSERT INTO sales (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = excluded.n",
                "COPY parts (a) FROM STDIN",
            ])
        #expect(pending.isEmpty)
    }
}
