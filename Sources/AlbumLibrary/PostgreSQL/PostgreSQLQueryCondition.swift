#if PostgreSQL
import PostgreSQLDatabase

/// An ``AlbumQuery`` compiled for PostgreSQL: a `WHERE` condition over the `album` table (as `a`)
/// and whether it decides the query exactly or only narrows it down, as ``QueryCondition`` does
/// for SQLite.
///
/// The SQL text is assembled only from the constant fragments written in this file and numbered
/// placeholders (`$1`, `$2`, …); every value a user typed is a bound parameter (``arguments``).
/// Words are found with `strpos` in the folded search text, as SQLite's `instr` finds them: both
/// compare the folded text's characters, so both stores answer the same.
struct PostgreSQLQueryCondition {
    /// The condition, a numbered placeholder for every value.
    private(set) var sql: String
    /// The values, `$1` first.
    private(set) var arguments: [(any PostgreSQLValue)?]
    /// Whether ``sql`` matches exactly the albums the query does; when not, it matches a superset,
    /// and each album it proposes must be checked with ``QueryMatcher``.
    private(set) var isExact: Bool

    /// The condition every album meets: what SQL cannot narrow down.
    private static let everything = "true"

    /// Compiles `query`; `nil` is every album, exactly.
    init(_ query: AlbumQuery?) {
        guard let query else {
            self.init(sql: Self.everything, arguments: [], isExact: true)
            return
        }
        var arguments: [(any PostgreSQLValue)?] = []
        let compiled = Self.compile(query.expression, &arguments)
        self.init(sql: compiled.sql, arguments: arguments, isExact: compiled.exact)
    }

    private init(sql: String, arguments: [(any PostgreSQLValue)?], isExact: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.isExact = isExact
    }

    /// One compiled part: its SQL and whether it is exact. Its values are appended to the
    /// arguments as it is compiled, so placeholders number in the order the SQL reads them.
    private typealias Part = (sql: String, exact: Bool)

    private static func compile(
        _ expression: AlbumQuery.Expression, _ arguments: inout [(any PostgreSQLValue)?]
    )
        -> Part
    {
        switch expression {
        case .term(let term):
            return compile(term, &arguments)
        case .not(let inner):
            // A superset of a negation needs a subset of what it negates: only an exact inner will do.
            let mark = arguments.count
            let inner = compile(inner, &arguments)
            guard inner.exact else {
                arguments.removeSubrange(mark...)
                return (everything, false)
            }
            return ("NOT (\(inner.sql))", true)
        case .all(let parts):
            let compiled = parts.map { compile($0, &arguments) }
            let narrowing = compiled.filter { $0.sql != everything }
            guard !narrowing.isEmpty else { return (everything, false) }
            return (
                narrowing.map { "(\($0.sql))" }.joined(separator: " AND "), compiled.allSatisfy(\.exact)
            )
        case .any(let parts):
            let mark = arguments.count
            let compiled = parts.map { compile($0, &arguments) }
            guard compiled.allSatisfy({ $0.sql != everything }) else {
                arguments.removeSubrange(mark...)
                return (everything, false)
            }
            return (compiled.map { "(\($0.sql))" }.joined(separator: " OR "), compiled.allSatisfy(\.exact))
        }
    }

    private static func compile(_ term: AlbumQuery.Term, _ arguments: inout [(any PostgreSQLValue)?]) -> Part {
        switch term {
        case .words(let text):
            return contains(SearchText.folded(text), exact: true, &arguments)
        case .text(_, let text):
            // A field's folded text is part of the search text: the column narrows, the matcher decides.
            return contains(SearchText.folded(text), exact: false, &arguments)
        case .years(let from, let through):
            let first = bind(Int64(from ?? Int.min), &arguments)
            let last = bind(Int64(through ?? Int.max), &arguments)
            return ("a.year IS NOT NULL AND a.year >= \(first)::bigint AND a.year <= \(last)::bigint", true)
        case .idPrefix(let prefix):
            let length = bind(prefix.utf8.count, &arguments)
            let upper = bind(prefix.uppercased(), &arguments)
            return ("upper(substr(a.id, 1, \(length)::integer)) = \(upper)::text", true)
        case .pattern:
            return (everything, false)
        }
    }

    /// The search text contains `folded`. A text holding NUL, which no stored text does (PostgreSQL
    /// stores none), matches nothing, as SQLite's `instr` then finds nothing.
    private static func contains(_ folded: String, exact: Bool, _ arguments: inout [(any PostgreSQLValue)?]) -> Part {
        guard !folded.utf8.contains(0) else { return ("false", true) }
        let placeholder = bind(folded, &arguments)
        return ("strpos(a.search_text, \(placeholder)::text) > 0", exact)
    }

    /// Appends `value` to the arguments and returns its placeholder (`$3`).
    private static func bind(_ value: some PostgreSQLValue, _ arguments: inout [(any PostgreSQLValue)?]) -> String {
        arguments.append(value)
        return "$" + String(arguments.count)
    }
}
#endif
