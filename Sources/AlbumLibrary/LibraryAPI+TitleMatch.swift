import Foundation
import SQLiteDatabase

// The forgiving ways a title names an album, tried by `find(_:)` when no title is exactly the one
// given: the same title with case and accents aside, and, for the refusal, titles a few letters away.

extension LibraryAPI {
    /// The albums whose title equals `title` with case, accents and width aside, in library order,
    /// with their positions.
    ///
    /// - Complexity: Through the trigram index for three characters or more (the folded title
    ///   starts each album's search text); shorter ones compare every album's search text.
    func albums(titledLike title: String) throws -> [(position: Int, album: Album)] {
        let folded = SearchText.folded(title)
        guard !folded.isEmpty else { return [] }
        #if PostgreSQL
        if let server {
            let found = try server.albums(searchTextStartingWith: folded + "\n")
                .filter { SearchText.folded($0.album.title) == folded }
            return try positioned(found.map { ($0.album, $0.sortKey) })
        }
        #endif
        let statement: Statement
        let arguments: [any DatabaseValueConvertible]
        // The search text is the folded title, a line feed, then the artist and genre.
        if folded.count >= SearchText.indexedLength {
            statement = try database.cachedStatement(
                """
                SELECT a.id, a.title, a.artist, a.genre, a.year, a.cover, a.sort_key
                FROM album_search s JOIN album a ON a.rowid = s.rowid
                WHERE album_search MATCH ? AND instr(a.search_text, ?) = 1
                """
            )
            arguments = [SearchText.phrase(folded), folded + "\n"]
        } else {
            statement = try database.cachedStatement(
                "SELECT \(Self.columns) FROM album WHERE instr(search_text, ?) = 1")
            arguments = [folded + "\n"]
        }
        var found: [(album: Album, sortKey: Int64)] = []
        try statement.readEachRow(arguments) { columns in
            found.append((try Self.album(from: columns), try columns.integer(at: 6)))
        }
        // A title with a line feed inside would match on its first line alone: compare it whole.
        found.removeAll { SearchText.folded($0.album.title) != folded }
        return try positioned(found)
    }

    /// Up to ``suggestionLimit`` albums whose folded titles are closest to `title`'s, at most
    /// ``suggestionDistance(for:)`` edits (of Unicode scalars) away, nearest first (ties in library
    /// order).
    ///
    /// - Complexity: O(*n*) albums read, each compared in O(*m*²) for titles of *m* characters.
    func albums(titledNear title: String) throws -> [(position: Int, album: Album)] {
        // Unicode scalars, not characters: folded titles are mostly ASCII, and scalars need no
        // grapheme breaking (a third of the time of a 100,000-album scan went there).
        let folded = Array(SearchText.folded(title).unicodeScalars)
        guard !folded.isEmpty else { return [] }
        let limit = Self.suggestionDistance(for: folded.count)
        #if PostgreSQL
        if let server { return try albums(titledNear: folded, limit: limit, on: server) }
        #endif
        var near: [(distance: Int, sortKey: Int64, rowID: Int64)] = []
        let statement = try database.cachedStatement(
            "SELECT substr(search_text, 1, instr(search_text, char(10)) - 1), sort_key, rowid FROM album")
        try statement.readEachRow { columns in
            let candidate = try columns.text(at: 0)
            // Fewer bytes than the scalars needed: too short, without decoding it.
            guard candidate.utf8.count >= folded.count - limit else { return }
            let scalars = candidate.unicodeScalars
            guard abs(scalars.count - folded.count) <= limit,
                let distance = EditDistance.between(folded, Array(scalars), limit: limit)
            else { return }
            near.append((distance, try columns.integer(at: 1), try columns.integer(at: 2)))
        }
        let chosen = near.sorted { ($0.distance, $0.sortKey) < ($1.distance, $1.sortKey) }.prefix(Self.suggestionLimit)
        let byRowID = try database.cachedStatement("SELECT \(Self.columns) FROM album WHERE rowid = ?")
        var found: [(album: Album, sortKey: Int64)] = []
        for candidate in chosen {
            try byRowID.readEachRow([candidate.rowID]) { columns in
                found.append((try Self.album(from: columns), candidate.sortKey))
            }
        }
        // Positions for the few chosen, then back to nearest first.
        let positions = Dictionary(
            uniqueKeysWithValues: try positioned(found).map { ($0.album.id, $0.position) })
        return found.map { (positions[$0.album.id] ?? 0, $0.album) }
    }

    #if PostgreSQL
    /// ``albums(titledNear:)`` on a server: the same rule over the folded titles it sends.
    private func albums(
        titledNear folded: [Unicode.Scalar], limit: Int, on server: PostgreSQLAlbums
    ) throws -> [(position: Int, album: Album)] {
        let near = try server.foldedTitles().compactMap { candidate -> (distance: Int, sortKey: Int64, id: UUID)? in
            let scalars = Array(candidate.title.unicodeScalars)
            guard abs(scalars.count - folded.count) <= limit,
                let distance = EditDistance.between(folded, scalars, limit: limit)
            else { return nil }
            return (distance, candidate.sortKey, candidate.id)
        }
        let chosen = near.sorted { ($0.distance, $0.sortKey) < ($1.distance, $1.sortKey) }.prefix(Self.suggestionLimit)
        return try chosen.compactMap { candidate in
            try server.album(withID: candidate.id).map { (try server.count(before: candidate.sortKey) + 1, $0) }
        }
    }
    #endif

    /// The most titles a refusal suggests.
    static let suggestionLimit = 3

    /// How many edits away a suggested title may be from one of `length` scalars: a third of
    /// it, at least one, so a short title is not answered with unrelated ones.
    static func suggestionDistance(for length: Int) -> Int {
        max(1, length / 3)
    }
}
