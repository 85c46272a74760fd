import Foundation
import SQLiteDatabase

extension LibraryAPI {
    /// The albums that match a search, in an order, each with its position in the library.
    ///
    /// The search is case- and accent-insensitive, over title, artist and genre: "bowie" finds
    /// "Best of Bowie" and "David Bowie", "bjork" finds "Björk". Queries of three characters or
    /// more read the library's trigram index (`album_search`), so a search of 100,000 albums reads
    /// the matches, not every album; shorter ones compare every album's search text.
    ///
    /// ```swift
    /// for (position, album) in try library.albums(matching: "sun", order: .year) {
    ///     print(position, album.title)  // 3 Nothing Like The Sun, 4 Staring at the Sun
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - query: The text to find; `nil` for every album.
    ///   - order: How to order the result; ties keep library order.
    /// - Returns: The matching albums with their 1-based positions.
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: O(*m* log *m*) for *m* matches, plus finding their positions: O(*p*) index
    ///   entries up to the last match's position *p*.
    public func albums(matching query: String?, order: AlbumOrder) throws -> [(position: Int, album: Album)] {
        var rows: [(position: Int, album: Album)]
        #if PostgreSQL
        if let server, let query {
            let folded = SearchText.folded(query)
            rows = folded.isEmpty ? [] : try server.albums(searchTextContaining: folded)
            return Self.sorted(rows, by: order)
        }
        #endif
        if let query {
            rows = try positioned(matches(for: SearchText.folded(query)))
        } else {
            rows = try albums().enumerated().map { ($0.offset + 1, $0.element) }
        }
        return Self.sorted(rows, by: order)
    }

    /// `rows` (in library order) in `order`; ties keep library order.
    private static func sorted(
        _ rows: [(position: Int, album: Album)], by order: AlbumOrder
    ) -> [(position: Int, album: Album)] {
        switch order {
        case .position: rows
        case .title: sorted(rows) { $0.title.lowercased() }
        case .artist: sorted(rows) { $0.artist.lowercased() }
        // Albums without a year go last: Int.max sorts after every year.
        case .year: sorted(rows) { $0.year ?? Int.max }
        }
    }

    /// The albums whose title is exactly `title`, in library order, with their positions.
    ///
    /// - Parameter title: The title, compared exactly (case and accents count).
    /// - Returns: The albums with that title, none, one or several.
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: O(*m* log *n*) through the title index, plus their positions.
    public func albums(titled title: String) throws -> [(position: Int, album: Album)] {
        #if PostgreSQL
        if let server { return try positioned(server.albums(titled: title).map { ($0.album, $0.sortKey) }) }
        #endif
        var found: [(album: Album, sortKey: Int64)] = []
        let statement = try database.cachedStatement("SELECT \(Self.columns) FROM album WHERE title = ?")
        try statement.readEachRow([title]) { columns in
            found.append((try Self.album(from: columns), try columns.integer(at: 6)))
        }
        return try positioned(found)
    }

    /// The albums whose search text contains `folded`, with their sort keys.
    private func matches(for folded: String) throws -> [(album: Album, sortKey: Int64)] {
        var found: [(album: Album, sortKey: Int64)] = []
        guard !folded.isEmpty else { return found }
        let statement: Statement
        let arguments: [any DatabaseValueConvertible]
        if SearchText.isIndexable(folded) {
            // The index proposes, the column decides: a match must contain the text itself.
            statement = try database.cachedStatement(
                """
                SELECT a.id, a.title, a.artist, a.genre, a.year, a.cover, a.sort_key
                FROM album_search s JOIN album a ON a.rowid = s.rowid
                WHERE album_search MATCH ? AND instr(a.search_text, ?) > 0
                """
            )
            arguments = [SearchText.phrase(folded), folded]
        } else {
            statement = try database.cachedStatement(
                "SELECT \(Self.columns) FROM album WHERE instr(search_text, ?) > 0")
            arguments = [folded]
        }
        try statement.readEachRow(arguments) { columns in
            found.append((try Self.album(from: columns), try columns.integer(at: 6)))
        }
        return found
    }

    /// The albums in library order with their positions, counted on the `sort_key` index.
    func positioned(_ found: [(album: Album, sortKey: Int64)]) throws -> [(position: Int, album: Album)] {
        let ordered = found.sorted { $0.sortKey < $1.sortKey }
        var result: [(position: Int, album: Album)] = []
        result.reserveCapacity(ordered.count)
        #if PostgreSQL
        if let server {
            return try ordered.map { (try server.count(before: $0.sortKey) + 1, $0.album) }
        }
        #endif
        if ordered.count > 256 {
            // Many matches: one walk over every key beats one count per match.
            var keys: [Int64] = []
            try database.cachedStatement("SELECT sort_key FROM album ORDER BY sort_key").forEachRow { row in
                keys.append(try row.decode(Int64.self, at: 0))
            }
            var position = 0
            for match in ordered {
                while position < keys.count && keys[position] < match.sortKey { position += 1 }
                result.append((position + 1, match.album))
            }
            return result
        }
        // Few matches: count the keys between one match and the next.
        let between = try database.cachedStatement("SELECT count(*) FROM album WHERE sort_key >= ? AND sort_key < ?")
        var before = 0
        var previous = Int64.min
        for match in ordered {
            try between.forEachRow([previous, match.sortKey]) { row in before += try row.decode(Int.self, at: 0) }
            result.append((before + 1, match.album))
            previous = match.sortKey
        }
        return result
    }

    private static func sorted<Key: Comparable>(
        _ rows: [(position: Int, album: Album)], by key: (Album) -> Key
    ) -> [(position: Int, album: Album)] {
        rows.map { (key: key($0.album), row: $0) }
            .sorted { $0.key != $1.key ? $0.key < $1.key : $0.row.position < $1.row.position }
            .map(\.row)
    }
}
