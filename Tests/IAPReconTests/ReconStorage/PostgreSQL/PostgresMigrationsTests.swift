import Testing

@testable import ReconStorage

/// The migrations written for PostgreSQL (``PostgresMigrations``) beside SQLite's (``Schema/migrations``).
///
/// The same names, and the same tables at the end. The reports on both engines (``PostgresTests``) check the rest.
@Suite struct PostgresMigrationsTests {
    @Test func everyMigrationIsWrittenForBothEngines() {
        #expect(PostgresMigrations.coversSchema)
        for migration in Schema.migrations {
            #expect(!PostgresMigrations.statements(of: migration.name).isEmpty, "\(migration.name)")
        }
    }

    @Test func bothEnginesEndWithTheSameTables() throws {
        let sqlite = try SQLiteDatabase(path: ":memory:")
        for migration in Schema.migrations { try sqlite.execute(migration.sql) }
        let names = try sqlite.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var tables: Set<String> = []
        while try names.step() { tables.insert(names.text(0)) }
        #expect(tables.isSubset(of: Set(PostgresMigrations.tables)), "\(tables.subtracting(PostgresMigrations.tables))")
        #expect(tables.contains("transactions") && tables.contains("evidence"))
    }

    /// A statement reaches PostgreSQL as it was written: its parameters are counted, not renumbered.
    @Test func aStatementIsCountedNotRewritten() {
        #expect(PostgresStatement.parameterCount("SELECT $2, $1, $12 FROM t WHERE a = $3") == 12)
        #expect(PostgresStatement.parameterCount("SELECT 1") == 0)
    }
}
