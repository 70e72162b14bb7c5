import ReconModel

/// The store on a Citus cluster (docs/store.md, "The store on Citus").
///
/// On a database where the `citus` extension is installed, the store distributes itself when it is created, and an
/// undistributed store is distributed by the next command that writes, as a migration. Nothing is asked of the
/// operator beyond the extension and the workers.
///
/// - The tables that grow with the ledger are hash-distributed by the original transaction id they belong to and
///   co-located with `transactions` (one subscription's rows, results and notes on one shard), as
///   [create_distributed_table](https://docs.citusdata.com/en/stable/develop/api_udf.html#create-distributed-table)
///   does with `colocate_with`.
/// - `findings` and `finding_users` by the finding's fingerprint, `notifications` by Apple's notification id: no
///   statement joins them with another distributed table.
/// - Every other table is a reference table, a copy on every node
///   ([create_reference_table](https://docs.citusdata.com/en/stable/develop/api_udf.html#create-reference-table)),
///   joined with the distributed ones on each shard.
package enum CitusLayout {
    /// A hash-distributed table: its distribution column and the table whose shards it shares.
    package struct Distributed: Equatable, Sendable {
        package var table: String
        package var column: String
        package var colocateWith: String?
    }

    /// The distributed tables in an order that works: the ledger's family (the first one starts the co-location
    /// group), then the findings' and the notifications'.
    package static let distributed: [Distributed] =
        [Distributed(table: "transactions", column: Schema.distributionColumn, colocateWith: nil)]
        + Schema.distributedTables.map {
            Distributed(table: $0.table, column: $0.column, colocateWith: "transactions")
        }
        + [
            Distributed(table: "findings", column: "fingerprint", colocateWith: nil),
            Distributed(table: "finding_users", column: "fingerprint", colocateWith: "findings"),
            Distributed(table: "notifications", column: "notification_uuid", colocateWith: nil),
        ]

    /// The distributed tables whose change-noting triggers stay: each writes to its own row's shard.
    ///
    /// They are set aside while rows are copied into shards (on a worker a trigger would fire before the tables it writes to are
    /// there).
    static let triggered = ["transactions", "evidence"]

    /// The triggers of reference tables, dropped on Citus.
    ///
    /// A trigger runs on every copy of a reference table, where no statement may reach a distributed table (`cannot
    /// execute a distributed query from a query on a shard`). What they noted the writers note themselves on Citus (``SQLiteDatabase/isCitus``): the receipts' in the ledger's
    /// import and the decode stage, Apple's reports' days in their imports.
    static let referenceTriggers: [(table: String, trigger: String)] =
        ["receipts", "receipt_checks"].flatMap { table in
            ["insert", "update", "delete"].map { (table, "\(table)_dirty_\($0)") }
        }
        + ["sales_report_rows", "financial_reports"].flatMap { table in
            ["insert", "update", "delete"].map { (table, "\(table)_days_\($0)") }
        }

    /// What a session on a Citus cluster sets for itself, for itself alone.
    ///
    /// - the change-noting triggers on the distributed tables, each writing to its own row's shard
    ///   (`dirty_transactions`, `dirty_originals` are co-located with the ledger): `citus.enable_unsafe_triggers`;
    /// - a transaction's statements over many shards on one connection per node (`citus.multi_shard_modify_mode`
    ///   `sequential`): a statement that reads shards another statement of the transaction wrote over several
    ///   connections is otherwise refused ("placements that were modified over multiple connections").
    static let sessionSettings = """
        SELECT set_config('citus.enable_unsafe_triggers', 'on', false),
            set_config('citus.multi_shard_modify_mode', 'sequential', false)
        """

    /// The store's tables that are reference tables: every one of `tables` that is not distributed.
    package static func referenceTables(of tables: [String]) -> [String] {
        let hashed = Set(distributed.map(\.table))
        return tables.filter { !hashed.contains($0) }
    }

    /// Distributes the store's tables that are not yet Citus tables, in one transaction, unless another process did
    /// first (the migration's advisory lock).
    ///
    /// The rows a table holds are copied into its shards with the change-noting triggers set aside (a copy changes
    /// no row), and the coordinator's local copy is emptied after.
    static func distribute(_ db: PostgresDatabase, tables: [String]) throws(StoreError) {
        let session = db.session
        let context = "distributing the store on Citus"
        let local = try undistributed(session, tables: tables)
        if local.isEmpty { return }
        do {
            try db.transaction {
                try session.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", context: context)
                let pending = try undistributed(session, tables: tables)
                if pending.isEmpty { return }
                for dropped in referenceTriggers where pending.contains(dropped.table) {
                    try session.execute(
                        "DROP TRIGGER IF EXISTS \(dropped.trigger) ON \(dropped.table)", context: context)
                    try session.execute("DROP FUNCTION IF EXISTS \(dropped.trigger)_fn()", context: context)
                }
                let aside = triggered.filter { pending.contains($0) }
                for table in aside {
                    try session.execute("ALTER TABLE \(table) DISABLE TRIGGER USER", context: context)
                }
                for table in referenceTables(of: tables) where pending.contains(table) {
                    try session.execute("SELECT create_reference_table('\(table)')", context: context)
                }
                for table in distributed where pending.contains(table.table) {
                    let colocation =
                        table.colocateWith.map { ", colocate_with => '\($0)'" } ?? ", colocate_with => 'none'"
                    try session.execute(
                        "SELECT create_distributed_table('\(table.table)', '\(table.column)'\(colocation))",
                        context: context)
                }
                for table in aside {
                    try session.execute("ALTER TABLE \(table) ENABLE TRIGGER USER", context: context)
                }
                for table in tables where pending.contains(table) {
                    try session.execute(
                        "SELECT truncate_local_data_after_distributing_table('\(table)')", context: context)
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .cannotOpen(path: db.path, message: "\(error)")
        }
    }

    /// The ones of `tables` that exist and are not yet Citus tables (`pg_dist_partition` lists the distributed and
    /// reference ones); a table the store makes only while it works (a report's staging) is left to when it exists.
    private static func undistributed(_ session: PostgresSession, tables: [String]) throws(StoreError) -> Set<String> {
        let local = try session.query(
            """
            SELECT name FROM unnest(string_to_array($1, ',')) AS name
            WHERE to_regclass(name) IS NOT NULL
                AND to_regclass(name) NOT IN (SELECT logicalrelid FROM pg_dist_partition)
            """, [.text(tables.joined(separator: ","))], context: "distributing the store on Citus")
        var pending: Set<String> = []
        for row in 0..<local.rowCount {
            if case .text(let name)? = local.value(row: row, column: 0) { pending.insert(name) }
        }
        return pending
    }
}
