/// An `INSERT … VALUES (…)` whose rows can be sent to PostgreSQL together: one statement of many rows rather than
/// a round trip per row, what a store across a network needs to write at the speed of one on a disk.
///
/// Only a statement whose parameters are all in its one row of values qualifies (an upsert reads the row it
/// would have written as `excluded`, never as a parameter), and a batch never holds two rows of one conflict key
/// (the second starts the next batch), so the rows do exactly what they would do one by one.
package struct PostgresInsertTemplate: Equatable {
    /// `INSERT INTO t (…) VALUES `.
    let head: String
    /// The table it writes (`pg_temp.t` for a temporary one).
    let table: String
    /// The row's text around its parameters: `parts[0] $p0 parts[1] $p1 … parts[n]`.
    let parts: [String]
    let parameters: [Int]
    /// `ON CONFLICT …`, or empty.
    let tail: String
    /// How many parameters one row binds.
    let parameterCount: Int
    /// The parameters (1-based) that are the conflict target's columns of an `ON CONFLICT (…) DO UPDATE`.
    let keyParameters: [Int]?
    /// The columns, when the rows can go by `COPY … FROM STDIN` instead (``PostgresCopyRows``): a plain INSERT (no
    /// `ON CONFLICT`) naming its columns, whose row is its parameters in order, `($1, $2, …, $n)`.
    let copyColumns: [String]?

    /// Rows in one statement: PostgreSQL takes at most 65,535 parameters; a `COPY` has no such limit, and goes when
    /// its data reaches ``PostgresCopyRows/fullSize``.
    var maximumRows: Int { copyColumns != nil ? 50_000 : max(1, min(1_000, 30_000 / max(1, parameterCount))) }

    /// The template of `sql` (in PostgreSQL's dialect), or nil when it is not such an INSERT.
    package init?(_ sql: String) {
        let tokens = SQLToken.tokens(sql)
        guard tokens.first(where: { !$0.isBlank })?.isWord("INSERT") == true else { return nil }
        var depth = 0
        var valuesAt: Int?
        for (index, token) in tokens.enumerated() {
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            if depth == 0, token.isWord("SELECT") || token.isWord("RETURNING") || token.isWord("WITH") { return nil }
            if depth == 0, token.isWord("VALUES") {
                guard valuesAt == nil else { return nil }
                valuesAt = index
            }
        }
        guard let valuesAt, let open = tokens[(valuesAt + 1)...].firstIndex(where: { !$0.isBlank }),
            tokens[open].isPunctuation("(")
        else { return nil }
        var close = open
        depth = 0
        for index in open..<tokens.count {
            if tokens[index].isPunctuation("(") { depth += 1 }
            if tokens[index].isPunctuation(")") {
                depth -= 1
                if depth == 0 {
                    close = index
                    break
                }
            }
        }
        let head = tokens[..<open].map(\.text).joined()
        let tail = tokens[(close + 1)...].map(\.text).joined()
        guard !head.contains("$"), !tail.contains("$"), !tail.contains(";") else { return nil }
        // The row: its text split around each `$n`.
        var parts = [""]
        var parameters: [Int] = []
        var index = open
        while index <= close {
            let token = tokens[index]
            if token.isPunctuation("$"), index + 1 <= close, tokens[index + 1].kind == .number,
                let number = Int(tokens[index + 1].text)
            {
                parameters.append(number)
                parts.append("")
                index += 2
                continue
            }
            parts[parts.count - 1] += token.text
            index += 1
        }
        guard let largest = parameters.max(), Set(parameters) == Set(1...largest) else { return nil }
        self.head = head
        let significant = tokens[..<open].filter { !$0.isBlank }
        guard let into = significant.firstIndex(where: { $0.isWord("INTO") }) else { return nil }
        table = significant[(into + 1)...].prefix { !$0.isPunctuation("(") && !$0.isWord("AS") }.map(\.text).joined()
        self.parts = parts
        self.parameters = parameters
        self.tail = tail
        parameterCount = largest
        if tail.range(of: "DO UPDATE", options: .caseInsensitive) != nil {
            guard let keys = Self.keyParameters(tokens: tokens, open: open, close: close) else { return nil }
            keyParameters = keys
        } else {
            keyParameters = nil
        }
        copyColumns = Self.copyColumns(
            significant: significant, into: into, tail: tail, parts: parts, parameters: parameters)
    }

    /// The named columns of a plain INSERT whose row is exactly `($1, $2, …, $n)`, one per column; else nil.
    private static func copyColumns(
        significant: [SQLToken], into: Int, tail: String, parts: [String], parameters: [Int]
    ) -> [String]? {
        guard tail.allSatisfy(\.isWhitespace), parameters == Array(1...parameters.count) else { return nil }
        let bare = parts.map { $0.filter { !$0.isWhitespace } }
        guard bare.first == "(", bare.last == ")", bare.dropFirst().dropLast().allSatisfy({ $0 == "," }) else {
            return nil
        }
        var position = into + 1
        while position < significant.count, !significant[position].isPunctuation("(") { position += 1 }
        var columns: [String] = []
        position += 1
        while position < significant.count, !significant[position].isPunctuation(")") {
            let token = significant[position]
            if token.kind == .word {
                columns.append(token.text.lowercased())
            } else if !token.isPunctuation(",") {
                return nil
            }
            position += 1
        }
        guard position < significant.count, columns.count == parameters.count else { return nil }
        return columns
    }

    /// The statement for `rows` rows, the n-th row's parameters numbered after the rows before it.
    func sql(rows: Int) -> String {
        var text = head
        text.reserveCapacity(
            head.count + rows * (parts.reduce(0) { $0 + $1.count } + parameters.count * 6) + tail.count)
        for row in 0..<rows {
            if row > 0 { text += ", " }
            for (offset, parameter) in parameters.enumerated() {
                text += parts[offset]
                text += "$\(row * parameterCount + parameter)"
            }
            text += parts[parameters.count]
        }
        return text + tail
    }

    /// The parameters of the conflict target's columns, when each of them is a bare parameter in the row.
    private static func keyParameters(tokens: [SQLToken], open: Int, close: Int) -> [Int]? {
        let significant = tokens.filter { !$0.isBlank }
        func columnList(after position: Int) -> [String]? {
            guard position < significant.count, significant[position].isPunctuation("(") else { return nil }
            var names: [String] = []
            var index = position + 1
            while index < significant.count, !significant[index].isPunctuation(")") {
                if significant[index].kind == .word { names.append(significant[index].text.lowercased()) }
                index += 1
            }
            return names
        }
        guard let into = significant.firstIndex(where: { $0.isWord("INTO") }),
            let columns = columnList(after: into + 2),
            let conflict = significant.firstIndex(where: { $0.isWord("CONFLICT") }),
            let keys = columnList(after: conflict + 1)
        else { return nil }
        // The row's expressions, at top-level commas.
        var expressions: [[SQLToken]] = [[]]
        var depth = 0
        for token in tokens[(open + 1)..<close] where !token.isBlank {
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            if depth == 0, token.isPunctuation(",") {
                expressions.append([])
            } else {
                expressions[expressions.count - 1].append(token)
            }
        }
        guard expressions.count == columns.count else { return nil }
        var parameters: [Int] = []
        for key in keys {
            guard let position = columns.firstIndex(of: key) else { return nil }
            let expression = expressions[position]
            guard expression.count == 2, expression[0].isPunctuation("$"), let number = Int(expression[1].text) else {
                return nil
            }
            parameters.append(number)
        }
        return parameters
    }
}
