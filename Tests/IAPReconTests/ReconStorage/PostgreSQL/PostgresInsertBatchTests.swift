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
        #expect(sameTable.map(\.sql) == ["INSERT INTO pg_temp.parts (a, b) VALUES ($1, $2), ($3, $4)"])
        #expect(sameTable.first?.values == [.integer(1), .text("x"), .integer(2), .text("y")])
        #expect(
            pending.takeAll().map(\.sql) == [
                "INSERT INTO sales (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = excluded.n",
                "INSERT INTO pg_temp.parts (a) VALUES ($1)",
            ])
        #expect(pending.isEmpty)
    }
}
