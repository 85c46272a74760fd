/// Reads the query language (``AlbumQuery``) into an expression: words, then terms, then
/// alternatives of terms that must all match.
enum AlbumQueryParser {
    /// One character of a word and whether quotes or a backslash made it literal.
    ///
    /// Scalars, not `Character`s: a combining accent after a quote would otherwise join it into one
    /// character that is no quote.
    private struct Letter {
        var character: Unicode.Scalar
        var isLiteral: Bool
    }

    private typealias Word = [Letter]

    /// Parses a line: words are separated by white space outside quotes.
    static func parse(line: String) throws(LibraryError) -> AlbumQuery? {
        try parse(lexed: try lex(line, splittingOnWhiteSpace: true))
    }

    /// Parses command-line words: each one is one word, white space included.
    static func parse(words: [String]) throws(LibraryError) -> AlbumQuery? {
        var lexed: [Word] = []
        for word in words { lexed += try lex(word, splittingOnWhiteSpace: false) }
        return try parse(lexed: lexed)
    }

    /// Splits `text` into words, removing quotes and backslashes and marking what they made literal.
    private static func lex(_ text: String, splittingOnWhiteSpace: Bool) throws(LibraryError) -> [Word] {
        var words: [Word] = []
        var word: Word = []
        // A word that was only quotes ("") is still a word: an empty phrase, refused later.
        var hadQuotes = false
        var inQuotes = false
        var escaping = false
        for character in text.unicodeScalars {
            if escaping {
                word.append(Letter(character: character, isLiteral: true))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "\"" {
                inQuotes.toggle()
                hadQuotes = true
            } else if splittingOnWhiteSpace && !inQuotes && character.properties.isWhitespace {
                if !word.isEmpty || hadQuotes { words.append(word) }
                word = []
                hadQuotes = false
            } else {
                word.append(Letter(character: character, isLiteral: inQuotes))
            }
        }
        if escaping { throw refusal("a backslash ends the query \(excerpt(text)); write \\\\ for one") }
        if inQuotes { throw refusal("unbalanced quote in \(excerpt(text))") }
        if !word.isEmpty || hadQuotes || (!splittingOnWhiteSpace && words.isEmpty) { words.append(word) }
        return words
    }

    private static func parse(lexed words: [Word]) throws(LibraryError) -> AlbumQuery? {
        guard !words.isEmpty else { return nil }
        var alternatives: [[AlbumQuery.Expression]] = [[]]
        var separator: String?
        var terms = 0
        for word in words {
            if let name = Self.separator(word) {
                guard !alternatives[alternatives.count - 1].isEmpty else {
                    throw refusal("‘\(name)’ needs a term before it")
                }
                alternatives.append([])
                separator = name
                continue
            }
            terms += 1
            guard terms <= AlbumQuery.maximumTerms else {
                throw refusal("a query holds at most \(AlbumQuery.maximumTerms) terms")
            }
            alternatives[alternatives.count - 1].append(try term(word))
        }
        if let separator, alternatives[alternatives.count - 1].isEmpty {
            throw refusal("‘\(separator)’ needs a term after it")
        }
        let expressions = alternatives.map { $0.count == 1 ? $0[0] : .all($0) }
        return AlbumQuery(expressions.count == 1 ? expressions[0] : .any(expressions))
    }

    /// `,` or `OR` written bare (not quoted): the name, else `nil`.
    private static func separator(_ word: Word) -> String? {
        guard word.allSatisfy({ !$0.isLiteral }) else { return nil }
        let text = Self.text(word)
        return text == "," || text == "OR" ? text : nil
    }

    private static func term(_ word: Word) throws(LibraryError) -> AlbumQuery.Expression {
        var word = word[...]
        var negated = false
        if let first = word.first, !first.isLiteral, first.character == "-" || first.character == "^" {
            word = word.dropFirst()
            negated = true
            guard !word.isEmpty else { throw refusal("‘\(first.character)’ needs a term after it") }
        }
        let term = try self.term(fieldOrWords: word)
        return negated ? .not(.term(term)) : .term(term)
    }

    private static func term(fieldOrWords word: ArraySlice<Letter>) throws(LibraryError) -> AlbumQuery.Term {
        // A field is the letters before the first colon, none of them quoted.
        guard let colon = word.firstIndex(where: { !$0.isLiteral && $0.character == ":" }),
            colon > word.startIndex,
            word[..<colon].allSatisfy({ !$0.isLiteral && $0.character.isASCII && $0.character.properties.isAlphabetic })
        else {
            let text = Self.text(word)
            guard !text.isEmpty else { throw refusal("an empty phrase (\"\") matches every album; leave it out") }
            return .words(text)
        }
        let name = Self.text(word[..<colon])
        guard let field = AlbumQuery.Field(rawValue: name) else {
            let known = AlbumQuery.Field.allCases.map(\.rawValue).joined(separator: ", ")
            throw refusal("unknown field ‘\(excerpt(name))’ (known: \(known); quote a phrase that holds a colon)")
        }
        var value = word[word.index(after: colon)...]
        var isPattern = false
        if let second = value.first, !second.isLiteral, second.character == ":" {
            value = value.dropFirst()
            isPattern = true
        }
        let text = Self.text(value)
        guard !text.isEmpty else { throw refusal("‘\(name):\(isPattern ? ":" : "")’ needs a value after it") }
        if isPattern { return try pattern(field, text) }
        switch field {
        case .title, .artist, .genre: return .text(field, text)
        case .year: return try years(text)
        case .id: return try idPrefix(text)
        }
    }

    private static func pattern(_ field: AlbumQuery.Field, _ pattern: String) throws(LibraryError) -> AlbumQuery.Term {
        guard pattern.count <= Album.maximumFieldLength else {
            throw refusal(
                "the regular expression for \(field.rawValue) is longer than \(Album.maximumFieldLength) characters")
        }
        do {
            _ = try Regex(pattern)
        } catch {
            throw refusal("bad regular expression ‘\(excerpt(pattern))’ for \(field.rawValue)")
        }
        return .pattern(field, pattern)
    }

    /// `1999`, `1990..1999`, `..1970`, `2000..`.
    private static func years(_ text: String) throws(LibraryError) -> AlbumQuery.Term {
        let parts = text.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 1 {
            let year = try year(parts[0], in: text)
            return .years(from: year, through: year)
        }
        let from = parts[0].isEmpty ? nil : try year(parts[0], in: text)
        let through = parts[1].isEmpty ? nil : try year(parts[1], in: text)
        guard from != nil || through != nil else {
            throw refusal("bad year range ‘..’: give a first year, a last year or both (1990..1999)")
        }
        if let from, let through, from > through {
            throw refusal("bad year range ‘\(text)’: \(from) is after \(through)")
        }
        return .years(from: from, through: through)
    }

    private static func year(_ text: Substring, in whole: String) throws(LibraryError) -> Int {
        guard !text.isEmpty, text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(text),
            Album.validYears.contains(year)
        else {
            throw refusal(
                "bad year ‘\(excerpt(whole))’: years are whole numbers from \(Album.validYears.lowerBound) to \(Album.validYears.upperBound), ranges read 1990..1999, ..1970 or 2000.."
            )
        }
        return year
    }

    private static func idPrefix(_ text: String) throws(LibraryError) -> AlbumQuery.Term {
        guard text.count <= 36, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw refusal("bad id ‘\(excerpt(text))’: an id is hexadecimal digits and dashes (id:3F2A)")
        }
        return .idPrefix(text.uppercased())
    }

    private static func text(_ letters: some Sequence<Letter>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: letters.lazy.map(\.character))
        return String(text)
    }

    private static func refusal(_ message: String) -> LibraryError {
        LibraryError(.invalidQuery, "bad query: " + message)
    }

    /// The text as a message shows it: one line, quoted, cut when long.
    private static func excerpt(_ text: String) -> String {
        LibraryError.excerpt(of: text)
    }
}
