#if PostgreSQL
// Queries and sorted listings on a server: the same answers as on a library file. The server
// proposes the albums (PostgreSQLQueryCondition, one statement with their positions), a
// QueryMatcher decides what SQL only narrowed down, and the albums are sorted here by the very
// keys the file's listing compares (titles and artists lowercased by Swift, missing years last),
// ties in library order.

extension LibraryAPI {
    /// What ``forEachAlbum(matching:sort:batchSize:_:)`` hands over, for a library on a server:
    /// `keys` are the sort's keys before trailing library order.
    ///
    /// - Complexity: One statement; memory O(*m*) albums for *m* matches.
    func forEachAlbum(
        on server: PostgreSQLAlbums, matching query: AlbumQuery?, keys: [AlbumSort.Key], batchSize: Int,
        _ body: ([(position: Int, album: Album)]) throws -> Void
    ) throws {
        let condition = PostgreSQLQueryCondition(query)
        var rows = try server.albums(meeting: condition)
        if let query, !condition.isExact {
            let matcher = QueryMatcher(query)
            rows.removeAll { !matcher.matches($0.album) }
        }
        if !keys.isEmpty {
            rows =
                rows
                .map { (key: ServerSortKey(keys, $0.album, position: $0.position), row: $0) }
                .sorted { $0.key != $1.key ? $0.key < $1.key : $0.row.position < $1.row.position }
                .map(\.row)
        }
        let size = max(1, batchSize)
        var start = 0
        while start < rows.count {
            let end = min(start + size, rows.count)
            try body(Array(rows[start..<end]))
            start = end
        }
    }
}

/// An album's values for a sort's keys, compared in turn, each in its direction: the order the
/// library file's listing gives.
private struct ServerSortKey: Comparable {
    private enum Value: Comparable {
        case text(String)
        case number(Int)
    }

    private var values: [Value]
    private var descending: [Bool]

    init(_ keys: [AlbumSort.Key], _ album: Album, position: Int) {
        values = keys.map { key in
            switch key.order {
            case .position: .number(position)
            case .title: .text(album.title.lowercased())
            case .artist: .text(album.artist.lowercased())
            // Albums without a year go last, whichever the direction.
            case .year: .number(album.year ?? (key.descending ? .min : .max))
            }
        }
        descending = keys.map(\.descending)
    }

    static func < (left: Self, right: Self) -> Bool {
        for index in left.values.indices where left.values[index] != right.values[index] {
            return left.descending[index]
                ? left.values[index] > right.values[index] : left.values[index] < right.values[index]
        }
        return false
    }
}
#endif
