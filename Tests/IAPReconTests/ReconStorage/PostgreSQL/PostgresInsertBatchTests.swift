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
        #expect(PostgresInsertTemplate("INSERT INTO p (a, b) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = $2") == nil)
        #expect(PostgresInsertTemplate("INSERT INTO p (a) VALUES ($1) RETURNING id") == nil)
        #expect(PostgresInsertTemplate("INSERT INTO p (a) SELECT a FROM q WHERE b = $1") == nil)
        #expect(PostgresInsertTemplate("UPDATE p SET a = $1") == nil)
        #expect(PostgresInsertTemplate("INSERT INTO p (a, b) VALUES (lower($1), $2) ON CONFLICT (a) DO UPDATE SET b = 1") == nil)
    }
}
