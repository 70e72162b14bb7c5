import ReconModel

/// The store's schema in PostgreSQL: the same tables, columns, indexes and triggers as SQLite's, made by the same
/// migrations, each written for PostgreSQL (``PostgresMigrations``).
///
/// A new store gets every migration in one transaction; a store of an older version gets each migration it lacks, each
/// in its own transaction. `schema_migrations` lists them by name in order, so a store written by a newer version is
/// refused, as a file is.
package enum PostgresSchema {
    /// The advisory lock that serializes creating and migrating a store (`pg_advisory_xact_lock`).
    static let migrationLock: Int64 = 0x6961_7072_6563_0001

    /// Opens the store's schema on `db` as `opening` says: created when absent (``ReconStore/Opening/createIfAbsent``),
    /// migrated forward when older, refused when newer or when the database holds other tables of its names.
    ///
    /// - Throws: ``StoreError/noStore(path:)``, ``StoreError/foreignTables(path:tables:)``,
    ///   ``StoreError/newerSchema(path:found:known:)``, ``StoreError/olderSchema(path:found:known:)``.
    package static func open(_ db: PostgresDatabase, opening: ReconStore.Opening, clock: any ReconClock)
        throws(StoreError)
    {
        if try !db.tableExists("schema_migrations") {
            guard opening == .createIfAbsent else { throw .noStore(path: db.path) }
            try create(db, clock: clock)
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
        if opening != .readOnly, db.isCitus {
            try CitusLayout.distribute(db, tables: try tables(db))
        }
        if opening == .readOnly {
            db.session.readsWhole = true
            // A second guard, as SQLite's `query_only`: even a statement that slips through cannot write.
            try db.execute(
                "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", context: "opening \(db.path) read-only")
        }
    }

    /// The store's tables in the database (a report's staged tables left by a failed run are not the store's).
    private static func tables(_ db: PostgresDatabase) throws(StoreError) -> [String] {
        let names = try db.prepare(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '%\\_staged'
            ORDER BY table_name
            """)
        var tables: [String] = []
        while try names.step() { tables.append(names.text(0)) }
        return tables
    }

    private static func appliedMigrations(_ db: PostgresDatabase) throws(StoreError) -> [String] {
        let names = try db.prepare("SELECT name FROM schema_migrations ORDER BY seq")
        var applied: [String] = []
        while try names.step() { applied.append(names.text(0)) }
        return applied
    }

    /// Creates the schema in one transaction, unless another process did first.
    ///
    /// Refuses a database that holds tables of the store's names it did not create. `count`: the first migrations only, as an older version made it.
    package static func create(
        _ db: PostgresDatabase, clock: any ReconClock, migrations count: Int = Schema.migrations.count
    ) throws(StoreError) {
        do {
            try db.transaction {
                try db.execute("SELECT pg_advisory_xact_lock(\(migrationLock))", context: "creating the store")
                if try db.tableExists("schema_migrations") { return }
                let foreign = try PostgresMigrations.tables.filter { table throws(StoreError) in
                    try db.tableExists(table)
                }
                if !foreign.isEmpty { throw StoreError.foreignTables(path: db.path, tables: foreign) }
                try db.execute(
                    """
                    CREATE TABLE schema_migrations (
                        seq BIGINT NOT NULL UNIQUE, name TEXT COLLATE "C" PRIMARY KEY NOT NULL, applied_at BIGINT NOT NULL)
                    """, context: "creating the store")
                // Who holds the writer's lock (``ReconStore/takeWriterLock(holder:)``): PostgreSQL's own.
                try db.execute(
                    "CREATE TABLE store_writer (id BIGINT PRIMARY KEY, holder TEXT COLLATE \"C\" NOT NULL, backend_pid BIGINT NOT NULL)",
                    context: "creating the store")
                for migration in Schema.migrations.prefix(count) {
                    for statement in PostgresMigrations.statements(of: migration.name) {
                        try db.session.execute(statement, context: "creating the store (\(migration.name))")
                    }
                }
                let record = try db.prepare("INSERT INTO schema_migrations (seq, name, applied_at) VALUES ($1, $2, $3)")
                for (seq, migration) in Schema.migrations.prefix(count).enumerated() {
                    try record.run([.integer(Int64(seq + 1)), .text(migration.name), .integer(clock.nowMillis())])
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .cannotOpen(path: db.path, message: "\(error)")
        }
    }

    /// Applies the migrations after the first `count`, each in its own transaction.
    private static func migrate(_ db: PostgresDatabase, from count: Int, clock: any ReconClock) throws(StoreError) {
        for (offset, migration) in Schema.migrations.enumerated().dropFirst(count) {
            do {
                try db.transaction {
                    try db.execute("SELECT pg_advisory_xact_lock(\(migrationLock))", context: "migrating the store")
                    let done = try db.scalar(
                        "SELECT COUNT(*) FROM schema_migrations WHERE name = $1", [.text(migration.name)])
                    if done ?? 0 > 0 { return }
                    for statement in PostgresMigrations.statements(of: migration.name) {
                        try db.session.execute(statement, context: "applying migration \(migration.name)")
                    }
                    try db.prepare("INSERT INTO schema_migrations (seq, name, applied_at) VALUES ($1, $2, $3)")
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
