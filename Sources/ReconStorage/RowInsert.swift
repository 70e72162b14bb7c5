/// An INSERT of one row, declared by its parts (table, columns, what a conflict does) rather than written as text.
///
/// Both engines run ``sql``, the one-row statement. A writer that inserts many rows in a transaction declares its
/// INSERT so, and PostgreSQL's store composes a batch from the same parts (``PostgresPendingRows``): one statement of
/// many rows, or a `COPY`, instead of a round trip per row. Nothing reads statement text to find these parts.
///
/// The parameters are `$1…$n`, one per column of ``columns`` in order; ``constants`` give the other columns a
/// literal value. A conflict's update reads the row it would have written as `excluded`, never a parameter, so a
/// row of many does what it would alone.
package struct RowInsert: Sendable, Equatable {
    /// What a row whose key is already in the table does (https://www.sqlite.org/lang_upsert.html,
    /// https://www.postgresql.org/docs/15/sql-insert.html "ON CONFLICT Clause").
    package enum OnConflict: Sendable, Equatable {
        /// The statement fails.
        case fail
        /// The row is skipped: on a conflict with the unique index on `target`, or with any when it is nil.
        case doNothing(target: [String]?)
        /// The row already there is updated by `set` (`column = excluded.column, …`).
        case update(target: [String], set: String)
    }

    package let table: String
    /// The columns bound to `$1…$n`, in order.
    package let columns: [String]
    /// Columns given a literal value (`'valid'`, `1`), written after the parameters' columns.
    package let constants: [Constant]
    package let onConflict: OnConflict

    /// A column and its literal SQL value.
    package struct Constant: Sendable, Equatable {
        package var column: String
        package var value: String
    }

    package init(
        into table: String, _ columns: [String], constants: [(String, String)] = [], onConflict: OnConflict = .fail
    ) {
        precondition(!columns.isEmpty, "an INSERT binds at least one column")
        self.table = table
        self.columns = columns
        self.constants = constants.map { Constant(column: $0.0, value: $0.1) }
        self.onConflict = onConflict
        if case .update(let target, let set) = onConflict {
            precondition(target.allSatisfy(columns.contains), "a conflict target is among the bound columns")
            precondition(!set.contains("$"), "a conflict's update reads excluded, not parameters")
        }
    }

    /// The one-row statement.
    package var sql: String { statement(rows: 1) }

    /// How many parameters one row binds.
    package var parameterCount: Int { columns.count }

    /// The statement for `rows` rows, the n-th row's parameters numbered after the rows before it.
    package func statement(rows: Int) -> String {
        let names = (columns + constants.map(\.column)).joined(separator: ", ")
        let literals = constants.map { ", " + $0.value }.joined()
        var text = "INSERT INTO \(table) (\(names)) VALUES "
        text.reserveCapacity(text.utf8.count + rows * (columns.count * 6 + literals.utf8.count + 4))
        var number = 0
        for row in 0..<rows {
            text += row == 0 ? "(" : ", ("
            for column in columns.indices {
                number += 1
                text += column == 0 ? "$\(number)" : ", $\(number)"
            }
            text += literals + ")"
        }
        switch onConflict {
        case .fail: break
        case .doNothing(nil): text += " ON CONFLICT DO NOTHING"
        case .doNothing(let target?): text += " ON CONFLICT (\(target.joined(separator: ", "))) DO NOTHING"
        case .update(let target, let set):
            text += " ON CONFLICT (\(target.joined(separator: ", "))) DO UPDATE SET \(set)"
        }
        return text
    }

    /// The parameters (1-based) of the conflict target's columns when a conflict updates: two rows of one key never
    /// go in one statement, which PostgreSQL refuses ("ON CONFLICT DO UPDATE command cannot affect row a second time").
    package var keyParameters: [Int]? {
        guard case .update(let target, _) = onConflict else { return nil }
        return target.compactMap { column in columns.firstIndex(of: column).map { $0 + 1 } }
    }

    /// The columns, when the rows can go by `COPY … FROM STDIN` (``PostgresCopyRows``): a plain INSERT of bound
    /// values, which a conflict fails as it would fail the copy.
    package var copyColumns: [String]? { onConflict == .fail && constants.isEmpty ? columns : nil }

    /// Rows in one statement: PostgreSQL takes at most 65,535 parameters; a `COPY` has no such limit, and goes when
    /// its data reaches ``PostgresCopyRows/fullSize``.
    package var maximumRows: Int { copyColumns != nil ? 50_000 : max(1, min(1_000, 30_000 / parameterCount)) }
}

extension RowInsert {
    /// A row the import rejected, kept with its reason; the same line of the same file rejected again keeps one row
    /// with the newer reason.
    package static let rejectedRow = RowInsert(
        into: "rejected_rows", ["kind", "source_file", "line", "record_id", "reason", "raw", "rejected_at"],
        onConflict: .update(
            target: ["source_file", "line", "raw"], set: "reason = excluded.reason, record_id = excluded.record_id"))
}
