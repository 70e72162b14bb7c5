/// SQL text as tokens: enough to split a script into its statements and to read an INSERT's table and columns.
///
/// For ``PostgresInsertTemplate``, without touching what is quoted: words, numbers, `'strings'`, `"identifiers"`,
/// parameters, comments, spaces and single punctuation characters (`||` and `<>` are two). Nothing is rewritten.
package struct SQLToken: Equatable {
    package enum Kind: Equatable {
        case word, number, string, quoted, parameter, comment, space, punctuation
    }

    package var kind: Kind
    package var text: String

    package init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// Whether this is the word `word`, in any case.
    package func isWord(_ word: String) -> Bool {
        kind == .word && text.caseInsensitiveCompare(word) == .orderedSame
    }

    package func isPunctuation(_ character: Character) -> Bool {
        kind == .punctuation && text.first == character
    }

    /// Spaces and comments: what a rewrite looks past.
    package var isBlank: Bool { kind == .space || kind == .comment }

    /// The tokens of `sql`.
    package static func tokens(_ sql: String) -> [SQLToken] {
        let characters = Array(sql)
        var tokens: [SQLToken] = []
        var index = 0
        func take(_ kind: Kind, from start: Int) {
            tokens.append(SQLToken(kind, String(characters[start..<index])))
        }
        while index < characters.count {
            let start = index
            let character = characters[index]
            if character == "'" || character == "\"" {
                // A quote is doubled inside its own quotes.
                index += 1
                while index < characters.count {
                    if characters[index] == character {
                        if index + 1 < characters.count, characters[index + 1] == character {
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    index += 1
                }
                take(character == "'" ? .string : .quoted, from: start)
            } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                take(.comment, from: start)
            } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "/" && characters[index - 1] == "*") {
                    index += 1
                }
                index = min(index + 1, characters.count)
                take(.comment, from: start)
            } else if character.isWhitespace {
                while index < characters.count, characters[index].isWhitespace { index += 1 }
                take(.space, from: start)
            } else if character == "?" {
                index += 1
                while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                take(.parameter, from: start)
            } else if character.isASCII, character.isNumber {
                while index < characters.count, characters[index].isASCII,
                    characters[index].isNumber || characters[index] == "."
                {
                    index += 1
                }
                take(.number, from: start)
            } else if character.isLetter || character == "_" {
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    index += 1
                }
                take(.word, from: start)
            } else {
                index += 1
                if index < characters.count,
                    (character == "|" && characters[index] == "|") || (character == "<" && characters[index] == ">")
                        || (character == "<" && characters[index] == "=")
                        || (character == ">" && characters[index] == "=")
                        || (character == "!" && characters[index] == "=")
                {
                    index += 1
                }
                take(.punctuation, from: start)
            }
        }
        return tokens
    }

    /// The statements of `tokens`, split at top-level semicolons.
    ///
    /// A trigger's `BEGIN … END` stays whole; blank statements are dropped.
    package static func statements(_ tokens: [SQLToken]) -> [[SQLToken]] {
        var statements: [[SQLToken]] = []
        var current: [SQLToken] = []
        var depth = 0
        var inTriggerBody = false
        for token in tokens {
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth -= 1 }
            if depth == 0, token.kind == .word {
                let significant = current.filter { !$0.isBlank }
                if token.isWord("BEGIN"), significant.first?.isWord("CREATE") == true,
                    significant.contains(where: { $0.isWord("TRIGGER") })
                {
                    inTriggerBody = true
                } else if token.isWord("END"), inTriggerBody {
                    inTriggerBody = false
                }
            }
            if depth == 0, !inTriggerBody, token.isPunctuation(";") {
                if current.contains(where: { !$0.isBlank }) { statements.append(current) }
                current = []
                continue
            }
            current.append(token)
        }
        if current.contains(where: { !$0.isBlank }) { statements.append(current) }
        return statements
    }

    /// The statements of `sql`, split at top-level semicolons, each as written.
    package static func split(_ sql: String) -> [String] {
        statements(tokens(sql)).map { $0.map(\.text).joined().trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
