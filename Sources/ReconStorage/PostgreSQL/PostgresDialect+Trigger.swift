extension PostgresDialect {
    /// A SQLite trigger (`CREATE TRIGGER name AFTER INSERT|UPDATE|DELETE ON table [WHEN condition] BEGIN
    /// statements END`) as PostgreSQL's: a PL/pgSQL function running the same statements when the condition
    /// holds, and a row trigger calling it.
    func trigger(_ significant: [SQLToken]) -> [String] {
        guard let named = significant.firstIndex(where: { $0.isWord("TRIGGER") }), named + 4 < significant.count,
            let on = significant.firstIndex(where: { $0.isWord("ON") }),
            let begin = significant.firstIndex(where: { $0.isWord("BEGIN") }),
            let end = significant.lastIndex(where: { $0.isWord("END") }), begin < end
        else {
            preconditionFailure("a trigger this dialect cannot read: \(Self.text(significant))")
        }
        let name = significant[named + 1].text
        let timing = significant[(named + 2)..<on].map(\.text).joined(separator: " ")
        let table = significant[on + 1].text
        var condition = "true"
        if let when = significant.firstIndex(where: { $0.isWord("WHEN") }), when < begin {
            condition = Self.text(rewrite(Self.spaced(Array(significant[(when + 1)..<begin]))))
        }
        let body = SQLToken.statements(Self.spaced(Array(significant[(begin + 1)..<end])))
            .map { Self.text(rewrite($0)) + ";" }
            .joined(separator: "\n    ")
        return [
            """
            CREATE FUNCTION \(name)_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF \(condition) THEN
                \(body)
              END IF;
              RETURN NULL;
            END
            $trigger$
            """,
            "CREATE TRIGGER \(name) \(timing) ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)_fn()",
        ]
    }

    /// `tokens` (blanks removed) with a space between each, so that they read as SQL again.
    static func spaced(_ tokens: [SQLToken]) -> [SQLToken] {
        var spaced: [SQLToken] = []
        for token in tokens {
            if !spaced.isEmpty { spaced.append(SQLToken(.space, " ")) }
            spaced.append(token)
        }
        return spaced
    }
}
