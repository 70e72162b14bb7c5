import ReconModel

/// The rows of INSERTs waiting to be sent to PostgreSQL together (``RowInsert``), a batch per statement.
///
/// Rows of one table keep their order: a statement's rows are sent before another statement's rows of the same
/// table are taken. Tables differ in what they hold, so batches of different tables may go in any order; anything
/// else the connection runs (a read, an update, a commit) sends them all first.
package struct PostgresPendingRows {
    private struct Batch {
        var template: RowInsert
        var values: [SQLValue] = []
        var rows = 0
        var keys: Set<[SQLValue]> = []
        /// The rows as `COPY` data, for a template that can go so (then `values` stays empty).
        var copy: PostgresCopyRows?

        init(template: RowInsert) {
            self.template = template
            copy = template.copyColumns.map { PostgresCopyRows(table: template.table, columns: $0) }
        }

        var isFull: Bool { rows >= template.maximumRows || copy?.isFull == true }
    }

    /// A statement to send: its SQL and its parameters, or the rows of a `COPY` (whose `sql` is then for messages).
    package struct Statement {
        package var sql: String
        package var values: [SQLValue]
        package var copy: PostgresCopyRows?
    }

    private var batches: [Int: Batch] = [:]
    /// Statement serials, in the order their batches started.
    private var order: [Int] = []
    /// The statement whose rows of each table are waiting.
    private var tables: [String: Int] = [:]

    package init() {}

    package var isEmpty: Bool { batches.isEmpty }

    /// Whether a read of `sql` must see rows waiting here: it names a table they go to.
    ///
    /// A read that names none of them reads the same without them. The names are compared as text, so a table
    /// named in a comment or a string counts too: at worst rows go earlier than they had to.
    package func isRead(by sql: String) -> Bool {
        tables.keys.contains { table in
            sql.contains(table.hasPrefix("pg_temp.") ? String(table.dropFirst("pg_temp.".count)) : table)
        }
    }

    /// Adds one row of statement `owner`; returns what must be sent now, in order: another statement's rows of the
    /// same table, this statement's earlier row of the same conflict key, a full batch.
    ///
    /// A statement whose batch is open holds its table (another statement's row of that table would have sent it), so
    /// the common case, the next row of the open batch, looks the batch up once and nothing else.
    package mutating func add(_ template: RowInsert, owner: Int, values: [SQLValue]) -> [Statement] {
        var due: [Statement] = []
        var position = batches.index(forKey: owner)
        if let keys = template.keyParameters, let open = position,
            batches.values[open].keys.contains(keys.map { values[$0 - 1] }), let taken = take(owner)
        {
            due.append(taken)
            position = nil
        }
        let at: Dictionary<Int, Batch>.Index
        if let position {
            at = position
        } else {
            if let other = tables[template.table], other != owner, let taken = take(other) { due.append(taken) }
            batches[owner] = Batch(template: template)
            order.append(owner)
            tables[template.table] = owner
            guard let opened = batches.index(forKey: owner) else { return due }
            at = opened
        }
        let row = values.prefix(template.parameterCount)
        if template.copyColumns != nil {
            batches.values[at].copy?.append(row)
        } else {
            batches.values[at].values.append(contentsOf: row)
        }
        batches.values[at].rows += 1
        if let keys = template.keyParameters { batches.values[at].keys.insert(keys.map { values[$0 - 1] }) }
        if batches.values[at].isFull, let taken = take(owner) { due.append(taken) }
        return due
    }

    /// Every batch, in the order they started.
    package mutating func takeAll() -> [Statement] {
        let serials = order
        return serials.compactMap { take($0) }
    }

    /// Forgets every row (the transaction rolled back).
    package mutating func discard() {
        batches.removeAll()
        order.removeAll()
        tables.removeAll()
    }

    private mutating func take(_ owner: Int) -> Statement? {
        guard let batch = batches.removeValue(forKey: owner) else { return nil }
        order.removeAll { $0 == owner }
        if tables[batch.template.table] == owner { tables[batch.template.table] = nil }
        if let copy = batch.copy { return Statement(sql: copy.sql, values: [], copy: copy) }
        return Statement(sql: batch.template.statement(rows: batch.rows), values: batch.values)
    }
}
