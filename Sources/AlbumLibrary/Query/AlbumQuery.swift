/// A query over the albums of a library: what `albums list artist:radiohead year:1990..1999` asks for.
///
/// The language, in the spirit of beets':
///
/// - a bare word or quoted phrase (`sun`, `"dark side"`) matches albums whose title, artist or
///   genre contains it, ignoring case, accents and width, as `--search` does;
/// - `title:`, `artist:` or `genre:` followed by text matches that field only (`artist:bjork`);
/// - `year:1999`, `year:1990..1999`, `year:..1970` and `year:2000..` match release years, ends
///   included (an album without a year matches none of them);
/// - `id:` followed by the first hexadecimal digits of an id matches the albums whose id starts so;
/// - `field::pattern` matches a field against a regular expression (case counts: `(?i)` ignores it);
/// - `-term` or `^term` matches the albums the term does not match;
/// - several terms must all match; `,` or `OR` between terms separates alternatives:
///   `artist:bowie year:..1980 , artist:sting` is (Bowie before 1981) or Sting.
///
/// Quotes group words into one term and keep `:`, `-`, `,` and `OR` literal (`"Live: 1999"`,
/// `"-ism"`); a backslash takes the next character as it is. A query that cannot be read (an
/// unbalanced quote, an unknown field, a bad year range or regular expression, an `OR` with
/// nothing on one side) is refused with a ``LibraryError`` of code ``LibraryError/Code/invalidQuery``
/// whose message is one line naming the fault.
///
/// ```swift
/// let query = try AlbumQuery(parsing: "artist:bowie year:1970..1979 -live")
/// try library.forEachAlbum(matching: query, order: .year) { rows in
///     for row in rows { print(row.position, row.album.title) }
/// }
/// ```
///
/// ``LibraryAPI`` evaluates a query in SQL with every value bound as a parameter, reading the
/// library file's trigram index for the text terms of three characters or more (on a PostgreSQL
/// server, the same condition in PostgreSQL's SQL, without an index); terms SQL cannot decide
/// exactly (a field's text, a regular expression) are checked on the albums the SQL proposes, so
/// both stores give the same answers.
public struct AlbumQuery: Sendable, Hashable, CustomStringConvertible {
    /// What the query matches.
    public var expression: Expression

    /// The most terms a query may hold, so that its SQL stays within SQLite's limits.
    public static let maximumTerms = 100

    /// Creates a query from its expression.
    ///
    /// - Parameter expression: What the query matches.
    public init(_ expression: Expression) {
        self.expression = expression
    }

    /// Parses one line of query text, words separated by white space outside quotes.
    ///
    /// - Parameter text: The query, as typed at a prompt.
    /// - Returns: The query, or `nil` when the text holds no term (every album matches).
    /// - Throws: ``LibraryError/Code/invalidQuery`` when the text is not a query.
    public static func parse(_ text: String) throws(LibraryError) -> AlbumQuery? {
        try AlbumQueryParser.parse(line: text)
    }

    /// Parses the words of a command line, each one term (or `,`/`OR`): white space inside a word
    /// belongs to it, as the shell's quotes meant.
    ///
    /// - Parameter words: The words, as the shell passed them.
    /// - Returns: The query, or `nil` when there are no words (every album matches).
    /// - Throws: ``LibraryError/Code/invalidQuery`` when the words are not a query.
    public static func parse(words: [String]) throws(LibraryError) -> AlbumQuery? {
        try AlbumQueryParser.parse(words: words)
    }

    /// Parses one line of query text that must hold at least one term.
    ///
    /// - Parameter text: The query.
    /// - Throws: ``LibraryError/Code/invalidQuery`` when the text is not a query or holds no term.
    public init(parsing text: String) throws(LibraryError) {
        guard let query = try AlbumQueryParser.parse(line: text) else {
            throw LibraryError(.invalidQuery, "the query is empty")
        }
        self = query
    }

    /// The query `--search TEXT` means: albums whose title, artist or genre contains the text.
    ///
    /// - Parameter text: The text, taken literally (no query syntax).
    /// - Returns: A query of one phrase.
    public static func containing(_ text: String) -> AlbumQuery {
        AlbumQuery(.term(.words(text)))
    }

    /// The query written in the language, quoted wherever needed, so that parsing it gives this
    /// query again.
    public var description: String { expression.description }

    /// Whether `album` matches the query: the rule ``LibraryAPI`` applies in SQL, applied to one value.
    ///
    /// - Parameter album: The album.
    /// - Returns: `true` when the album matches.
    /// - Complexity: O(*n*) in the album's text for each term, except regular expressions, whose
    ///   cost depends on the pattern.
    public func matches(_ album: Album) -> Bool {
        QueryMatcher(self).matches(album)
    }
}
