import Foundation

/// Decides a query on one album in Swift: the exact rule, for the terms SQL can only narrow down
/// (a field's text, regular expressions) and for ``AlbumQuery/matches(_:)``.
///
/// Text is compared as folded UTF-8 bytes, as SQLite's `instr` compares the stored search text, so
/// both paths agree on every string. Regular expressions are compiled once per matcher.
struct QueryMatcher {
    private let query: AlbumQuery
    private var patterns: [String: Regex<AnyRegexOutput>] = [:]

    init(_ query: AlbumQuery) {
        self.query = query
        collectPatterns(query.expression)
    }

    private mutating func collectPatterns(_ expression: AlbumQuery.Expression) {
        switch expression {
        case .term(.pattern(_, let pattern)):
            // The parser compiled it once already; a query built by hand with a bad one matches nothing.
            patterns[pattern] = try? Regex(pattern)
        case .term: break
        case .not(let inner): collectPatterns(inner)
        case .all(let inner), .any(let inner): inner.forEach { collectPatterns($0) }
        }
    }

    func matches(_ album: Album) -> Bool {
        matches(query.expression, album)
    }

    private func matches(_ expression: AlbumQuery.Expression, _ album: Album) -> Bool {
        switch expression {
        case .term(let term): matches(term, album)
        case .not(let inner): !matches(inner, album)
        case .all(let inner): inner.allSatisfy { matches($0, album) }
        case .any(let inner): inner.contains { matches($0, album) }
        }
    }

    private func matches(_ term: AlbumQuery.Term, _ album: Album) -> Bool {
        switch term {
        case .words(let text):
            return Self.contains(SearchText.of(album), SearchText.folded(text))
        case .text(let field, let text):
            return Self.contains(SearchText.folded(Self.text(of: field, album) ?? ""), SearchText.folded(text))
        case .years(let from, let through):
            guard let year = album.year else { return false }
            return year >= (from ?? Int.min) && year <= (through ?? Int.max)
        case .idPrefix(let prefix):
            return album.id.uuidString.uppercased().hasPrefix(prefix.uppercased())
        case .pattern(let field, let pattern):
            guard let regex = patterns[pattern], let text = Self.text(of: field, album) else { return false }
            return (try? regex.firstMatch(in: text)) != nil
        }
    }

    /// The field's text as a term reads it; `nil` for a missing year.
    static func text(of field: AlbumQuery.Field, _ album: Album) -> String? {
        switch field {
        case .title: album.title
        case .artist: album.artist
        case .genre: album.genre
        case .year: album.year.map(String.init)
        case .id: album.id.uuidString
        }
    }

    /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s (SQLite's `instr` on text).
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        let bytes = Array(haystack.utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
