import SQLiteDatabase

/// An ``AlbumQuery`` compiled for SQLite: a `WHERE` condition over the `album` table (as `a`),
/// an optional full-text expression for the `album_search` index, and whether the condition
/// decides the query exactly or only narrows it down.
///
/// The SQL text is assembled only from the constant fragments written in this file; every value a
/// user typed is a bound parameter (`arguments`), and the full-text expression is one bound
/// parameter too, made of quoted phrases (quotes inside doubled) joined with `AND`/`OR`, so no user
/// text ever reaches SQL or FTS5 as syntax.
struct QueryCondition {
    /// The condition, placeholders (`?`) for every value.
    private(set) var sql: String
    /// The values, in placeholder order.
    private(set) var arguments: [DatabaseValue]
    /// Whether `sql` matches exactly the albums the query does; when not, it matches a superset,
    /// and each album it proposes must be checked with ``QueryMatcher``.
    private(set) var isExact: Bool
    /// An FTS5 expression every match satisfies, when there is one worth reading the index for.
    private(set) var fullText: String?

    private init(_ sql: String, _ arguments: [DatabaseValue] = [], exact: Bool, fullText: String? = nil) {
        self.sql = sql
        self.arguments = arguments
        self.isExact = exact
        self.fullText = fullText
    }

    /// The condition for every album: what SQL cannot narrow down.
    private static let everything = QueryCondition("1", exact: false)

    init(_ query: AlbumQuery) {
        self = Self.compile(query.expression)
    }

    private static func compile(_ expression: AlbumQuery.Expression) -> QueryCondition {
        switch expression {
        case .term(let term):
            return compile(term)
        case .not(let inner):
            // A superset of a negation needs a subset of what it negates: only an exact inner will do.
            let inner = compile(inner)
            guard inner.isExact else { return everything }
            return QueryCondition("NOT (\(inner.sql))", inner.arguments, exact: true)
        case .all(let parts):
            let parts = parts.map(compile)
            let narrowing = parts.filter { $0.sql != everything.sql }
            guard !narrowing.isEmpty else { return everything }
            let texts = parts.compactMap(\.fullText)
            return QueryCondition(
                narrowing.map { "(\($0.sql))" }.joined(separator: " AND "), narrowing.flatMap(\.arguments),
                exact: parts.allSatisfy(\.isExact),
                fullText: texts.isEmpty ? nil : texts.map { "(\($0))" }.joined(separator: " AND "))
        case .any(let parts):
            let parts = parts.map(compile)
            guard parts.allSatisfy({ $0.sql != everything.sql }) else { return everything }
            let texts = parts.compactMap(\.fullText)
            return QueryCondition(
                parts.map { "(\($0.sql))" }.joined(separator: " OR "), parts.flatMap(\.arguments),
                exact: parts.allSatisfy(\.isExact),
                // Every alternative must be in the index, or the index would miss the others' matches.
                fullText: texts.count == parts.count ? texts.map { "(\($0))" }.joined(separator: " OR ") : nil)
        }
    }

    private static func compile(_ term: AlbumQuery.Term) -> QueryCondition {
        switch term {
        case .words(let text):
            let folded = SearchText.folded(text)
            return QueryCondition(
                "instr(a.search_text, ?) > 0", [.text(folded)], exact: true, fullText: indexed(folded))
        case .text(_, let text):
            // A field's folded text is part of the search text: the column narrows, the matcher decides.
            let folded = SearchText.folded(text)
            return QueryCondition(
                "instr(a.search_text, ?) > 0", [.text(folded)], exact: false, fullText: indexed(folded))
        case .years(let from, let through):
            return QueryCondition(
                "a.year IS NOT NULL AND a.year >= ? AND a.year <= ?",
                [.integer(Int64(from ?? Int.min)), .integer(Int64(through ?? Int.max))],
                exact: true)
        case .idPrefix(let prefix):
            return QueryCondition(
                "upper(substr(a.id, 1, ?)) = ?", [.integer(Int64(prefix.utf8.count)), .text(prefix.uppercased())],
                exact: true)
        case .pattern:
            return everything
        }
    }

    /// The index's phrase for folded text it can find (three characters or more, no NUL), else `nil`.
    private static func indexed(_ folded: String) -> String? {
        SearchText.isIndexable(folded) ? SearchText.phrase(folded) : nil
    }
}
