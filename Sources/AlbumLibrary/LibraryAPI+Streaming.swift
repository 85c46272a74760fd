import Foundation
import SQLiteDatabase

/// Reading a whole library in bounded memory: what `albums list` and `albums export` print, a
/// batch at a time (issue 27, C1: on 300,005 albums under `ulimit -v 150000` they aborted with
/// "failed to allocate", holding every album, every cell and the whole text at once).
extension LibraryAPI {
    /// Every album in library order, handed to `body` a batch at a time and kept by none.
    ///
    /// One statement reads them all, so they are one snapshot of the library whatever other
    /// processes commit meanwhile. ``albums()`` returns the same albums in one array.
    ///
    /// ```swift
    /// try library.forEachAlbum { batch in
    ///     for album in batch { print(album.title) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - batchSize: The most albums handed over at once.
    ///   - body: Called with each batch, in order; throwing stops the read and rethrows.
    /// - Throws: `DatabaseError` if the library cannot be read, or what `body` throws.
    /// - Complexity: O(*n*) time; memory O(`batchSize`).
    public func forEachAlbum(batchSize: Int = 1_000, _ body: ([Album]) throws -> Void) throws {
        #if PostgreSQL
        if let server {
            // Pages by key, in the caller's snapshot (``inOneSnapshot(_:)``) when it took one.
            var last: Int64?
            while true {
                let page = try server.albums(after: last, limit: batchSize)
                guard let end = page.last else { return }
                try body(page.map(\.album))
                last = end.sortKey
            }
        }
        #endif
        var batch: [Album] = []
        batch.reserveCapacity(batchSize)
        // A statement of its own: `body` may read the library through the cached ones.
        let statement = try database.prepare(
            "SELECT id, title, artist, genre, year, cover FROM album ORDER BY sort_key")
        try statement.readEachRow { columns in
            batch.append(try Self.album(from: columns))
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// The title, artist and genre of every album, in no particular order, lent to `body` as UTF-8
    /// bytes (valid during the call only), with whether it has a year: what measuring a table of
    /// the whole library needs, read without making a string or an album per row.
    ///
    /// - Parameter body: Called once per album with its title, artist and genre, and whether its
    ///   year is set.
    /// - Throws: `DatabaseError` if the library cannot be read, or what `body` throws.
    /// - Complexity: O(*n*) time, O(1) memory.
    public func forEachAlbumText(
        _ body: (
            _ title: UnsafeBufferPointer<UInt8>, _ artist: UnsafeBufferPointer<UInt8>,
            _ genre: UnsafeBufferPointer<UInt8>, _ hasYear: Bool
        ) throws -> Void
    ) throws {
        #if PostgreSQL
        if server != nil {
            return try forEachAlbum { albums in
                for album in albums {
                    var (title, artist, genre) = (album.title, album.artist, album.genre)
                    try title.withUTF8 { title in
                        try artist.withUTF8 { artist in
                            try genre.withUTF8 { genre in try body(title, artist, genre, album.year != nil) }
                        }
                    }
                }
            }
        }
        #endif
        let statement = try database.prepare("SELECT title, artist, genre, year IS NOT NULL FROM album")
        try statement.readEachRow { columns in
            let hasYear = try columns.integer(at: 3) != 0
            try columns.withUTF8(at: 0) { title in
                try columns.withUTF8(at: 1) { artist in
                    try columns.withUTF8(at: 2) { genre in try body(title, artist, genre, hasYear) }
                }
            }
        }
    }

    /// The albums ``albums(matching:order:)`` returns, in the same order with the same positions,
    /// handed to `body` a batch at a time.
    ///
    /// Memory holds, per matching album, its row, its position and what it is ordered by (the
    /// title or artist folded to lowercase, or the year), never the album: each batch is read back
    /// by row when its turn comes. Everything is read in one transaction, one snapshot.
    ///
    /// - Parameters:
    ///   - query: Text every album's title, artist or genre must contain, as in
    ///     ``albums(matching:order:)``; `nil` for every album.
    ///   - order: How to order them; ties keep library order.
    ///   - batchSize: The most albums handed over at once.
    ///   - body: Called with each batch, in order.
    /// - Throws: `DatabaseError` if the library cannot be read, or what `body` throws.
    /// - Complexity: O(*m* log *m*) for *m* matches, plus one walk over the `sort_key` index to
    ///   find their positions when there is a query; memory O(*m*) small entries.
    public func forEachAlbum(
        matching query: String?, order: AlbumOrder, batchSize: Int = 1_000,
        _ body: ([(position: Int, album: Album)]) throws -> Void
    ) throws {
        // An empty search finds nothing (a query's empty phrase would find everything).
        if let query, SearchText.folded(query).isEmpty { return }
        try forEachAlbum(matching: query.map(AlbumQuery.containing), sort: AlbumSort(order), batchSize: batchSize, body)
    }

    /// The albums that match a query, sorted, with their positions, handed to `body` a batch at a
    /// time: what `albums list QUERY… --sort KEYS` prints.
    ///
    /// Memory holds, per matching album, its row, its position and what it is sorted by, never
    /// the album: each batch is read back by row when its turn comes. Everything is read in one
    /// transaction, one snapshot.
    ///
    /// ```swift
    /// let query = try AlbumQuery(parsing: "genre:jazz year:1955..1965 -artist:davis")
    /// try library.forEachAlbum(matching: query, sort: try AlbumSort(parsing: "year-,title")) { rows in
    ///     for row in rows { print(row.position, row.album.title) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - query: What the albums must match (see ``AlbumQuery``); `nil` for every album.
    ///   - sort: How to order them; albums equal on every key keep library order.
    ///   - batchSize: The most albums handed over at once.
    ///   - body: Called with each batch, in order.
    /// - Throws: `DatabaseError` if the library cannot be read, or what `body` throws.
    /// - Complexity: O(*m* log *m*) for *m* matches, plus reading the albums the query's SQL
    ///   proposes (the trigram index's matches for text of three characters or more, else every
    ///   album) and one walk over the `sort_key` index to find their positions; memory O(*m*)
    ///   small entries.
    public func forEachAlbum(
        matching query: AlbumQuery?, sort: AlbumSort, batchSize: Int = 1_000,
        _ body: ([(position: Int, album: Album)]) throws -> Void
    ) throws {
        let keys = sort.keys.prefix { $0.order != .position || $0.descending }
        if query == nil && keys.isEmpty {
            var position = 0
            return try forEachAlbum(batchSize: batchSize) { albums in
                try body(
                    albums.map { album in
                        position += 1
                        return (position, album)
                    })
            }
        }
        #if PostgreSQL
        if let server {
            return try forEachAlbum(on: server, matching: query, keys: Array(keys), batchSize: batchSize, body)
        }
        #endif
        try database.inTransaction(.deferred) {
            switch (keys.count, keys.first?.descending) {
            case (0, _):
                try emit(try entries(matching: query) { _ in 0 }, batchSize: batchSize, body)
            case (1, false?):
                // One ascending key, the everyday sort: compared without the composite key's arrays.
                try emit(
                    try entries(matching: query) { try SortValue(keys[keys.startIndex], $0) }, batchSize: batchSize,
                    body)
            default:
                let descending = keys.map(\.descending)
                try emit(
                    try entries(matching: query) { columns in
                        CompositeSortKey(values: try keys.map { try SortValue($0, columns) }, descending: descending)
                    }, batchSize: batchSize, body)
            }
            return .commit
        }
    }

    /// One key's value of an album, read from a row of ``columns`` and rowid.
    private enum SortValue: Comparable {
        case text(String)
        case number(Int64)

        init(_ key: AlbumSort.Key, _ columns: borrowing ColumnReader) throws {
            switch key.order {
            // Library order is sort_key order.
            case .position: self = .number(try columns.integer(at: 6))
            case .title: self = .text(try columns.text(at: 1).lowercased())
            case .artist: self = .text(try columns.text(at: 2).lowercased())
            case .year:
                // Albums without a year go last, whichever the direction.
                self =
                    columns.isNull(at: 4) ? .number(key.descending ? .min : .max) : .number(try columns.integer(at: 4))
            }
        }
    }

    /// Several keys' values, compared in turn, each in its direction.
    private struct CompositeSortKey: Comparable {
        var values: [SortValue]
        var descending: [Bool]

        static func < (left: Self, right: Self) -> Bool {
            for index in left.values.indices where left.values[index] != right.values[index] {
                return left.descending[index]
                    ? left.values[index] > right.values[index] : left.values[index] < right.values[index]
            }
            return false
        }
    }

    /// A matching album as the ordered read keeps it.
    private struct Entry<Key: Comparable> {
        var rowID: Int64
        var sortKey: Int64
        var position = 0
        var key: Key
    }

    /// The albums matching `query` (every album for `nil`) with their positions, ordered by `key`
    /// (read from a row of ``columns`` and rowid), ties in library order.
    private func entries<Key: Comparable>(
        matching query: AlbumQuery?, key: (borrowing ColumnReader) throws -> Key
    ) throws -> [Entry<Key>] {
        var entries: [Entry<Key>] = []
        if let query {
            try forEachMatch(of: query) { columns in
                entries.append(
                    Entry(rowID: try columns.integer(at: 7), sortKey: try columns.integer(at: 6), key: try key(columns))
                )
            }
            // Positions: one walk over the sort keys in order, counting those below each match's.
            entries.sort { $0.sortKey < $1.sortKey }
            var next = 0
            var below = 0
            try database.prepare("SELECT sort_key FROM album ORDER BY sort_key").readEachRow { columns in
                let sortKey = try columns.integer(at: 0)
                while next < entries.count && entries[next].sortKey <= sortKey {
                    entries[next].position = below + 1
                    next += 1
                }
                below += 1
            }
            while next < entries.count {
                entries[next].position = below + 1
                next += 1
            }
        } else {
            try database.prepare("SELECT \(Self.columns), rowid FROM album ORDER BY sort_key")
                .readEachRow { columns in
                    entries.append(
                        Entry(
                            rowID: try columns.integer(at: 7), sortKey: try columns.integer(at: 6),
                            position: entries.count + 1, key: try key(columns)))
                }
        }
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        return entries
    }

    /// Reads the albums of `entries` back by row, in their order, a batch at a time.
    private func emit<Key>(
        _ entries: [Entry<Key>], batchSize: Int, _ body: ([(position: Int, album: Album)]) throws -> Void
    ) throws {
        let byRow = try database.prepare("SELECT id, title, artist, genre, year, cover FROM album WHERE rowid = ?")
        var batch: [(position: Int, album: Album)] = []
        batch.reserveCapacity(min(batchSize, entries.count))
        for entry in entries {
            try byRow.readEachRow([entry.rowID]) { columns in
                batch.append((entry.position, try Self.album(from: columns)))
            }
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Runs `body` in one read transaction: every read in it sees the same snapshot of the library,
    /// whatever other processes commit meanwhile (a listing read in two passes, say).
    ///
    /// - Parameter body: The reads.
    /// - Throws: `DatabaseError` if the transaction cannot begin, or what `body` throws.
    public func inOneSnapshot(_ body: () throws -> Void) throws {
        #if PostgreSQL
        if let server { return try server.inOneSnapshot(body) }
        #endif
        try database.inTransaction(.deferred) {
            try body()
            return .commit
        }
    }
}
