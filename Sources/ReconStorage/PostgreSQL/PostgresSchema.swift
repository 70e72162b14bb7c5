import ReconModel

/// The store's schema in PostgreSQL: the same tables, columns, indexes and triggers as SQLite's, derived
/// from it, so there is one schema in two dialects.
///
/// SQLite's migrations are the truth. A new PostgreSQL store gets the schema they make, built in memory
/// and read back from `sqlite_schema`, in one transaction; a store of an older version gets each
/// migration it lacks, in PostgreSQL's dialect, each in its own transaction. `schema_migrations` lists
/// them by name in order, so a store written by a newer version is refused, as a file is.
package enum PostgresSchema {
    /// The advisory lock that serializes creating and migrating a store (`pg_advisory_xact_lock`).
    static let migrationLock: Int64 = 0x6961_7072_6563_0001

    /// The schema SQLite's migrations make: its tables, its statements in PostgreSQL's dialect, and the columns
    /// never NULL in any table.
    package typealias Derived = (tables: [String], statements: [String], notNull: Set<String>)

    /// ``derived()``, worked out once per process: `serve` opens the store for every request.
    private static let derivedOnce = Result { () throws(StoreError) -> Derived in try derived() }

    /// The statements of the schema SQLite's migrations make, and the columns never NULL in any table.
    package static func derived() throws(StoreError) -> Derived {
        let sqlite = try SQLiteDatabase(path: ":memory:")
        for migration in Schema.migrations {
            try sqlite.execute(migration.sql, context: "deriving the schema (\(migration.name))")
        }
        let objects = try sqlite.prepare(
            "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
        var tables: [String] = []
        var definitions: [String] = []
        while try objects.step() {
            if objects.text(0) == "table" { tables.append(objects.text(1)) }
            definitions.append(objects.text(2))
        }
        var nullable: Set<String> = []
        var notNull: Set<String> = []
        for table in tables {
            let columns = try sqlite.prepare("SELECT name, \"notnull\", pk FROM pragma_table_info(?)")
            try columns.bind([.text(table)])
            while try columns.step() {
                let name = columns.text(0).lowercased()
                if columns.int64(1) != 0 || columns.int64(2) != 0 {
                    notNull.insert(name)
                } else {
                    nullable.insert(name)
                }
            }
        }
        let dialect = PostgresDialect(notNullColumns: notNull.subtracting(nullable))
        return (tables, definitions.flatMap(dialect.statements), dialect.notNullColumns)
    }

    /// Opens the store's schema on `db` as `opening` says: created when absent (``ReconStore/Opening/createIfAbsent``),
    /// migrated forward when older, refused when newer or when the database holds other tables of its names.
    ///
    /// - Throws: ``StoreError/noStore(path:)``, ``StoreError/foreignTables(path:tables:)``,
    ///   ``StoreError/newerSchema(path:found:known:)``, ``StoreError/olderSchema(path:found:known:)``.
    package static func open(_ db: SQLiteDatabase, opening: ReconStore.Opening, clock: any ReconClock)
        throws(StoreError)
    {
        let schema = try derivedOnce.get()
        db.dialect = PostgresDialect(notNullColumns: schema.notNull)
        if try !db.tableExists("schema_migrations") {
            guard opening == .createIfAbsent else { throw .noStore(path: db.path) }
            try create(db, schema: schema, clock: clock)
        }
        let applied = try appliedMigrations(db)
        let known = Schema.migrations.count
        if applied.count > known || !zip(applied, Schema.migrations).allSatisfy({ $0 == $1.name }) {
            throw .newerSchema(path: db.path, found: applied.count, known: known)
        }
        if applied.count < known {
            guard opening != .readOnly else { throw .olderSchema(path: db.path, found: applied.count, known: known) }
            try migrate(db, from: applied.count, clock: clock)
        }
        if opening != .readOnly, db.postgres?.isCitus == true {
            try CitusLayout.distribute(db, tables: schema.tables + ["schema_migrations", "store_writer"])
        }
        if opening == .readOnly {
            // A second guard, as SQLite's `query_only`: even a statement that slips through cannot write.
            try db.execute(
                "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", context: "opening \(db.path) read-only")
        }
    }

    private static func appliedMigrations(_ db: SQLiteDatabase) throws(StoreError) -> [String] {
        let names = try db.prepare("SELECT name FROM schema_migrations ORDER BY seq")
        var applied: [String] = []
        while try names.step() { applied.append(names.text(0)) }
        return applied
    }

    /// Creates the whole schema in one transaction, unless another process did first; refuses a database that
    /// holds tables of the store's names it did not create.
    private static func create(_ db: SQLiteDatabase, schema: Derived, clock: any ReconClock) throws(StoreError) {
        do {
            try db.transaction {
                try db.execute("SELECT pg_advisory_xact_lock(\(migrationLock))", context: "creating the store")
                if try db.tableExists("schema_migrations") { return }
                let foreign = try schema.tables.filter { table throws(StoreError) in try db.tableExists(table) }
                if !foreign.isEmpty { throw StoreError.foreignTables(path: db.path, tables: foreign) }
                try db.execute(
                    """
                    CREATE TABLE schema_migrations (
                        seq INTEGER NOT NULL UNIQUE, name TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)
                    """, context: "creating the store")
                // Who holds the writer's lock (``ReconStore/takeWriterLock(holder:)``): PostgreSQL's own.
                try db.execute(
                    "CREATE TABLE store_writer (id INTEGER PRIMARY KEY, holder TEXT NOT NULL, backend_pid INTEGER NOT NULL)",
                    context: "creating the store")
                for statement in schema.statements {
                    try db.postgres?.execute(statement, context: "creating the store")
                }
                // The keys PostgreSQL keeps otherwise than SQLite (``Schema/Migration/postgresAfter``).
                for migration in Schema.migrations where !migration.postgresAfter.isEmpty {
                    try db.postgres?.execute(migration.postgresAfter, context: "creating the store")
                }
                let record = try db.prepare("INSERT INTO schema_migrations (seq, name, applied_at) VALUES (?, ?, ?)")
                for (seq, migration) in Schema.migrations.enumerated() {
                    try record.run([.integer(Int64(seq + 1)), .text(migration.name), .integer(clock.nowMillis())])
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .cannotOpen(path: db.path, message: "\(error)")
        }
    }

    /// Applies the migrations after the first `count`, in PostgreSQL's dialect, each in its own transaction.
    private static func migrate(_ db: SQLiteDatabase, from count: Int, clock: any ReconClock) throws(StoreError) {
        for (offset, migration) in Schema.migrations.enumerated().dropFirst(count) {
            do {
                try db.transaction {
                    try db.execute("SELECT pg_advisory_xact_lock(\(migrationLock))", context: "migrating the store")
                    let done = try db.scalar(
                        "SELECT COUNT(*) FROM schema_migrations WHERE name = ?", [.text(migration.name)])
                    if done ?? 0 > 0 { return }
                    try db.execute(migration.sql, context: "applying migration \(migration.name)")
                    if !migration.postgresAfter.isEmpty {
                        try db.postgres?.execute(
                            migration.postgresAfter, context: "applying migration \(migration.name)")
                    }
                    try db.prepare("INSERT INTO schema_migrations (seq, name, applied_at) VALUES (?, ?, ?)")
                        .run([.integer(Int64(offset + 1)), .text(migration.name), .integer(clock.nowMillis())])
                }
            } catch let error as StoreError {
                throw error
            } catch {
                throw .cannotOpen(path: db.path, message: "\(error)")
            }
        }
    }
}
