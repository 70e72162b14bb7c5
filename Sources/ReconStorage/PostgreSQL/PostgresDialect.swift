/// The store's SQL, written for SQLite, as PostgreSQL must read it: one schema and one set of
/// statements, two dialects.
///
/// What differs and how it is rewritten:
/// - parameters `?` and `?N` become `$n` and `$N`;
/// - `temp.t` is `pg_temp.t`, `main.t` is `t`; `PRAGMA`s are dropped; `WITHOUT ROWID` and `REFERENCES`
///   go (SQLite's store runs with foreign keys off);
/// - `INTEGER` is `bigint`; a table's `TEXT` column sorts bytewise (`COLLATE "C"`, SQLite's `BINARY`); an
///   `INTEGER PRIMARY KEY` (SQLite's row id) is an identity column;
/// - `INSERT OR IGNORE` is `ON CONFLICT DO NOTHING`;
/// - `a IS b` and `a IS NOT b` compare NULLs as SQLite does (`IS [NOT] DISTINCT FROM`);
/// - scalar `MAX(a, b)` / `MIN(a, b)` are `GREATEST` / `LEAST`, NULL when either is (as in SQLite);
/// - `ORDER BY` puts NULLs first when ascending and last when descending, as SQLite does (a column that is
///   never NULL needs no clause, so its index still gives the order);
/// - SQLite's `INDEXED BY` hint goes; `group_concat` is `string_agg`, `instr` is `strpos`, `char` is `chr`, `WHERE 0` is `WHERE false`;
/// - a trigger becomes a PL/pgSQL function and a row trigger that calls it; `DROP TRIGGER t` drops the function.
package struct PostgresDialect: Sendable {
    /// Columns that are NOT NULL in every table that has them: ordering by one needs no NULLS clause.
    package var notNullColumns: Set<String>

    package init(notNullColumns: Set<String> = []) {
        self.notNullColumns = notNullColumns
    }

    /// `sql` (one or more statements) as PostgreSQL statements, joined by `;`.
    package func translate(_ sql: String) -> String {
        statements(sql).joined(separator: ";\n")
    }

    /// `sql` as PostgreSQL statements, one string each; a `PRAGMA` gives none, a trigger two.
    package func statements(_ sql: String) -> [String] {
        SQLToken.statements(SQLToken.tokens(sql)).flatMap { statement -> [String] in
            let significant = statement.filter { !$0.isBlank }
            guard let first = significant.first, !first.isWord("PRAGMA") else { return [] }
            if first.isWord("BEGIN"), significant.count == 2 {
                // SQLite's `BEGIN IMMEDIATE`/`DEFERRED`: one writer is the advisory lock's work here.
                return ["BEGIN"]
            }
            if first.isWord("CREATE"), significant.dropFirst().prefix(3).contains(where: { $0.isWord("TRIGGER") }) {
                return trigger(significant)
            }
            if first.isWord("DROP"), significant.count == 3, significant[1].isWord("TRIGGER") {
                // The trigger is its function's: dropping the function drops the trigger with it.
                return ["DROP FUNCTION \(significant[2].text)_fn() CASCADE"]
            }
            return [Self.text(rewrite(statement))]
        }
    }

    /// How many parameters `sql` (one statement) takes, after ``translate(_:)``: the largest `$n`.
    package static func parameterCount(_ translated: String) -> Int {
        var largest = 0
        var characters = Substring(translated)
        while let dollar = characters.firstIndex(of: "$") {
            characters = characters[characters.index(after: dollar)...]
            let digits = characters.prefix(while: { $0.isASCII && $0.isNumber })
            if let number = Int(digits) { largest = max(largest, number) }
        }
        return largest
    }

    static func text(_ tokens: [SQLToken]) -> String {
        tokens.map(\.text).joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: One statement

    /// One statement's tokens, rewritten.
    func rewrite(_ statement: [SQLToken]) -> [SQLToken] {
        let input = Self.aliasingSubqueries(statement)
        let significant = input.filter { !$0.isBlank }
        let createsTable = Self.definesColumns(significant)
        let addsColumn = significant.first?.isWord("ALTER") == true && significant.contains(where: { $0.isWord("ADD") })
        var tokens: [SQLToken] = []
        var parameter = 0
        var ignoreConflicts = false
        var index = 0
        var depth = 0
        func next(after position: Int) -> Int? {
            var position = position + 1
            while position < input.count, input[position].isBlank { position += 1 }
            return position < input.count ? position : nil
        }
        func previousSignificant() -> SQLToken? { tokens.last(where: { !$0.isBlank }) }
        while index < input.count {
            let token = input[index]
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            switch token.kind {
            case .parameter:
                let digits = token.text.dropFirst()
                if digits.isEmpty {
                    parameter += 1
                    tokens.append(SQLToken(.parameter, "$\(parameter)"))
                } else {
                    parameter = max(parameter, Int(digits) ?? 0)
                    tokens.append(SQLToken(.parameter, "$" + digits))
                }
            case .word:
                let upper = token.text.uppercased()
                if upper == "TEMP" || upper == "MAIN", let dot = next(after: index), input[dot].isPunctuation(".") {
                    if upper == "TEMP" { tokens.append(SQLToken(.word, "pg_temp")) } else { index = dot }
                } else if upper == "OR", previousSignificant()?.isWord("INSERT") == true, let what = next(after: index),
                    input[what].isWord("IGNORE")
                {
                    ignoreConflicts = true
                    index = what
                    if let space = input.indices.dropFirst(what + 1).first, input[space].isBlank { index = space }
                } else if upper == "WITHOUT", let rowid = next(after: index), input[rowid].isWord("ROWID") {
                    index = rowid
                } else if upper == "INDEXED", let by = next(after: index), input[by].isWord("BY"),
                    let name = next(after: by)
                {
                    // SQLite's index hint: PostgreSQL's planner chooses alone.
                    index = name
                } else if upper == "AUTOINCREMENT" {
                    break
                } else if upper == "FOREIGN", createsTable, let key = next(after: index), input[key].isWord("KEY"),
                    let open = next(after: key), let columns = Self.arguments(input, open: open)
                {
                    // A table's `, FOREIGN KEY (…) REFERENCES …`: dropped whole, with its comma.
                    while let last = tokens.popLast(), !last.isPunctuation(",") {}
                    index = columns.close
                } else if upper == "REFERENCES", createsTable {
                    // `REFERENCES table(column)`: dropped, as SQLite's store keeps foreign keys off.
                    var position = index
                    var open = 0
                    while let following = next(after: position) {
                        position = following
                        if input[position].isPunctuation("(") { open += 1 }
                        if input[position].isPunctuation(")") {
                            open -= 1
                            if open == 0 { break }
                        }
                    }
                    // … and its actions (`ON DELETE CASCADE`), which SQLite's store never runs either.
                    while let on = next(after: position), input[on].isWord("ON"), let verb = next(after: on),
                        input[verb].isWord("DELETE") || input[verb].isWord("UPDATE"), var action = next(after: verb)
                    {
                        if input[action].isWord("SET") || input[action].isWord("NO"), let what = next(after: action) {
                            action = what
                        }
                        position = action
                    }
                    index = position
                } else if upper == "INTEGER" {
                    if createsTable || addsColumn, let key = next(after: index), input[key].isWord("PRIMARY") {
                        tokens.append(SQLToken(.word, "BIGINT GENERATED BY DEFAULT AS IDENTITY"))
                    } else {
                        tokens.append(SQLToken(.word, "BIGINT"))
                    }
                } else if upper == "TEXT", createsTable || addsColumn, previousSignificant()?.kind == .word {
                    tokens.append(SQLToken(.word, "TEXT COLLATE \"C\""))
                } else if upper == "IS", let following = next(after: index) {
                    if input[following].isWord("NOT"), let after = next(after: following),
                        !input[after].isWord("NULL")
                    {
                        tokens.append(SQLToken(.word, "IS DISTINCT FROM"))
                        index = following
                    } else if !input[following].isWord("NOT"), !input[following].isWord("NULL"),
                        !input[following].isWord("DISTINCT")
                    {
                        tokens.append(SQLToken(.word, "IS NOT DISTINCT FROM"))
                    } else {
                        tokens.append(token)
                    }
                } else if upper == "GROUP_CONCAT" {
                    tokens.append(SQLToken(.word, "string_agg"))
                } else if upper == "INSTR" {
                    tokens.append(SQLToken(.word, "strpos"))
                } else if upper == "CHAR", let open = next(after: index), input[open].isPunctuation("(") {
                    tokens.append(SQLToken(.word, "chr"))
                } else if upper == "WHERE", let value = next(after: index), input[value].kind == .number,
                    input[value].text == "0" || input[value].text == "1"
                {
                    tokens.append(token)
                    tokens.append(SQLToken(.space, " "))
                    tokens.append(SQLToken(.word, input[value].text == "0" ? "false" : "true"))
                    index = value
                } else if upper == "MAX" || upper == "MIN", let open = next(after: index),
                    input[open].isPunctuation("("),
                    let arguments = Self.arguments(input, open: open), arguments.list.count == 2
                {
                    let left = rewrite(arguments.list[0])
                    let right = rewrite(arguments.list[1])
                    let function = upper == "MAX" ? "GREATEST" : "LEAST"
                    let a = Self.text(left)
                    let b = Self.text(right)
                    parameter = max(parameter, Self.parameterCount(a), Self.parameterCount(b))
                    tokens.append(
                        SQLToken(
                            .word,
                            "(CASE WHEN (\(a)) IS NULL OR (\(b)) IS NULL THEN NULL ELSE \(function)(\(a), \(b)) END)"
                        ))
                    index = arguments.close
                } else if upper == "ORDER", let by = next(after: index), input[by].isWord("BY") {
                    tokens.append(token)
                    tokens.append(SQLToken(.space, " "))
                    tokens.append(input[by])
                    let end = Self.orderEnd(input, from: by + 1)
                    let terms = Self.split(Array(input[(by + 1)..<end]))
                    let rewritten = terms.map { term -> String in
                        var text = Self.text(rewrite(term))
                        let words = term.filter { !$0.isBlank }
                        if !words.contains(where: { $0.isWord("NULLS") }) && !isNeverNull(words) {
                            text += words.last?.isWord("DESC") == true ? " NULLS LAST" : " NULLS FIRST"
                        }
                        return text
                    }
                    tokens.append(SQLToken(.space, " "))
                    tokens.append(SQLToken(.word, rewritten.joined(separator: ", ")))
                    if end < input.count, !input[end].isPunctuation(")") { tokens.append(SQLToken(.space, " ")) }
                    parameter = max(parameter, Self.parameterCount(rewritten.joined()))
                    index = end - 1
                } else {
                    tokens.append(token)
                }
            default:
                tokens.append(token)
            }
            index += 1
        }
        if ignoreConflicts {
            if let returning = tokens.firstIndex(where: { $0.isWord("RETURNING") }) {
                tokens.insert(SQLToken(.word, " ON CONFLICT DO NOTHING "), at: returning)
            } else {
                tokens.append(SQLToken(.word, " ON CONFLICT DO NOTHING"))
            }
        }
        return tokens
    }

    /// `tokens` with an alias after every subquery in a `FROM` or `JOIN` that has none: PostgreSQL requires one
    /// (before version 16), SQLite does not.
    static func aliasingSubqueries(_ tokens: [SQLToken]) -> [SQLToken] {
        let clauses: Set<String> = [
            "WHERE", "GROUP", "ORDER", "UNION", "EXCEPT", "INTERSECT", "LIMIT", "JOIN", "LEFT", "INNER", "CROSS", "ON",
            "HAVING", "WINDOW", "OFFSET", "RETURNING", "USING", "NATURAL", "FULL", "RIGHT",
        ]
        func significant(after position: Int) -> Int? {
            var position = position + 1
            while position < tokens.count, tokens[position].isBlank { position += 1 }
            return position < tokens.count ? position : nil
        }
        var aliasAfter: Set<Int> = []
        for (index, token) in tokens.enumerated() where token.isWord("FROM") || token.isWord("JOIN") {
            guard let open = significant(after: index), tokens[open].isPunctuation("("),
                let first = significant(after: open),
                tokens[first].isWord("SELECT") || tokens[first].isWord("WITH") || tokens[first].isWord("VALUES"),
                let close = arguments(tokens, open: open)?.close
            else { continue }
            if let following = significant(after: close) {
                let next = tokens[following]
                let named = next.isWord("AS") || (next.kind == .word && !clauses.contains(next.text.uppercased()))
                if named { continue }
            }
            aliasAfter.insert(close)
        }
        guard !aliasAfter.isEmpty else { return tokens }
        var aliased: [SQLToken] = []
        for (index, token) in tokens.enumerated() {
            aliased.append(token)
            if aliasAfter.contains(index) { aliased.append(SQLToken(.word, " AS subquery_\(index)")) }
        }
        return aliased
    }

    /// Whether `significant` is `CREATE [TEMP] TABLE [IF NOT EXISTS] name (…)`: a list of column definitions,
    /// not a table made from a query.
    private static func definesColumns(_ significant: [SQLToken]) -> Bool {
        guard significant.first?.isWord("CREATE") == true,
            var position = significant.prefix(4).firstIndex(where: { $0.isWord("TABLE") })
        else { return false }
        position += 1
        if position < significant.count, significant[position].isWord("IF") { position += 3 }
        position += 1
        if position < significant.count, significant[position].isPunctuation(".") { position += 2 }
        return position < significant.count && significant[position].isPunctuation("(")
    }

    /// Whether an ordering term is a column (bare or qualified, ascending or descending) that no table lets be NULL.
    private func isNeverNull(_ words: [SQLToken]) -> Bool {
        var words = words
        if words.last?.isWord("DESC") == true || words.last?.isWord("ASC") == true { words.removeLast() }
        guard let column = words.last, column.kind == .word else { return false }
        if words.count == 1 { return notNullColumns.contains(column.text.lowercased()) }
        if words.count == 3, words[0].kind == .word, words[1].isPunctuation(".") {
            return notNullColumns.contains(column.text.lowercased())
        }
        return false
    }

    /// The arguments of the call whose `(` is at `open`, split at top-level commas, and its `)`.
    private static func arguments(_ input: [SQLToken], open: Int) -> (list: [[SQLToken]], close: Int)? {
        var depth = 0
        var position = open
        while position < input.count {
            if input[position].isPunctuation("(") { depth += 1 }
            if input[position].isPunctuation(")") {
                depth -= 1
                if depth == 0 { return (split(Array(input[(open + 1)..<position])), position) }
            }
            position += 1
        }
        return nil
    }

    /// `tokens` split at top-level commas.
    private static func split(_ tokens: [SQLToken]) -> [[SQLToken]] {
        var parts: [[SQLToken]] = [[]]
        var depth = 0
        for token in tokens {
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            if depth == 0, token.isPunctuation(",") {
                parts.append([])
            } else {
                parts[parts.count - 1].append(token)
            }
        }
        return parts
    }

    /// Where an `ORDER BY` list that starts at `start` ends: a `)` closing what holds it, or a clause after it.
    private static func orderEnd(_ input: [SQLToken], from start: Int) -> Int {
        let ends: Set<String> = [
            "LIMIT", "OFFSET", "UNION", "EXCEPT", "INTERSECT", "FETCH", "FOR", "ROWS", "RANGE", "WINDOW", "GROUPS",
            "ON",
            "WHERE", "RETURNING",
        ]
        var depth = 0
        var position = start
        while position < input.count {
            let token = input[position]
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") {
                if depth == 0 { return position }
                depth -= 1
            }
            if depth == 0, token.kind == .word, ends.contains(token.text.uppercased()) { return position }
            position += 1
        }
        return position
    }
}
