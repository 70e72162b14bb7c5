import Testing

@testable import ReconStorage

/// Which INSERTs may send their rows together, and the one statement they become.
struct PostgresInsertBatchTests {
    @Test func rowsAreNumberedAfterTheRowsBeforeThem() throws {
        let template = try #require(
            PostgresInsertTemplate("INSERT INTO t (a, b, c) VALUES ($1, lower($2), 7) ON CONFLICT DO NOTHING"))
        #expect(
            template.sql(rows: 3)
                == "INSERT INTO t (a, b, c) VALUES ($1, lower($2), 7), ($3, lower($4), 7), ($5, lower($6), 7) ON CONFLICT DO NOTHING"
        )
        #expect(template.keyParameters == nil)
        #expect(template.maximumRows == 1_000)
    }

    @Test func anUpsertReadingExcludedIsKeyedByItsConflictTarget() throws {
        let template = try #require(
            PostgresInsertTemplate(
                "INSERT INTO p (product_id, storefront, price) VALUES ($1, $2, $3) "
                    + "ON CONFLICT (storefront, product_id) DO UPDATE SET price = excluded.price"))
        #expect(template.keyParameters == [2, 1])
    }

    /// A parameter outside the row would mean the first row's value in every row.
    @Test func statementsThatCannotGoTogetherAreLeftAlone() {
        #expect(
            PostgresInsertTemplate("INSERT INTO p (a, b) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = $2") == nil)
        #expect(PostgresInsertTemplate("INSERT INTO p (a) VALUES ($1) RETURNING id") == nil)
        #expect(PostgresInsertTemplate("INSERT INTO p (a) SELECT a FROM q WHERE b = $1") == nil)
        #expect(PostgresInsertTemplate("UPDATE p SET a = $1") == nil)
        #expect(
            PostgresInsertTemplate("INSERT INTO p (a, b) VALUES (lower($1), $2) ON CONFLICT (a) DO UPDATE SET b = 1")
                == nil)
    }
}

extension PostgresInsertBatchTests {
    /// A plain INSERT naming its columns, whose row is its parameters in order, goes by `COPY`; any other keeps its
    /// INSERT (an upsert, an expression, a constant, parameters out of order, no column list).
    @Test func onlyAPlainInsertOfItsParametersGoesByCopy() throws {
        let plain = try #require(PostgresInsertTemplate("INSERT INTO t (a, B,c) VALUES ($1,$2, $3 )"))
        #expect(plain.copyColumns == ["a", "b", "c"])
        for sql in [
            "INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            "INSERT INTO t (a, b) VALUES ($1, lower($2))",
            "INSERT INTO t (a, b) VALUES ($1, 0)",
            "INSERT INTO t (a, b) VALUES ($2, $1)",
            "INSERT INTO t VALUES ($1, $2)",
        ] {
            #expect(try #require(PostgresInsertTemplate(sql)).copyColumns == nil, "\(sql)")
        }
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
    @Test func pendingRowsKeepEachTablesOrder() throws {
        let parts = try #require(PostgresInsertTemplate("INSERT INTO pg_temp.parts (a, b) VALUES ($1, $2)"))
        let sales = try #require(
            PostgresInsertTemplate(
                "INSERT INTO sales (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = excluded.n"))
        let otherParts = try #require(PostgresInsertTemplate("INSERT INTO pg_temp.parts (a) VALUES ($1)"))
        #expect(parts.table == "pg_temp.parts")
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
        #expect(sameTable.map(\.sql) == ["COPY pg_temp.parts (a, b) FROM STDIN"])
        #expect(sameTable.first?.copy.map { String(decoding: $0.data, as: UTF8.self) } == "1\tx\n2\ty\n")
        #expect(
            pending.takeAll().map(\.sql) == [
                "INSERT INTO sales (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = excluded.n",
                "COPY pg_temp.parts (a) FROM STDIN",
            ])
        #expect(pending.isEmpty)
    }
}
