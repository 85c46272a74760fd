import Foundation
import SQLiteDatabase

// Many albums put in at given positions in one pass (a bulk step's undo, a bulk move): each run
// of consecutive positions gets its sort keys in one go, found by stepping from the album put in
// before it, so the walk through the sort-key index covers the library once, not once per album.

extension LibraryAPI {
    /// Inserts albums so that each ends up at its position; the albums already in the library
    /// keep their order around them.
    ///
    /// Inserting them one by one with ``insert(_:at:)`` in ascending position order gives the same
    /// library, at the cost of a walk to each position: this walks the library once.
    ///
    /// - Parameter placed: The albums, in ascending position order, no position twice; each
    ///   position from 1 to the number of albums there are once the ones before it are in, plus 1.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` or ``LibraryError/Code/invalidValue``
    ///   (a position out of order, an id taken), or `DatabaseError`; call it inside a transaction
    ///   to make it all or nothing.
    /// - Complexity: O(*n* + *m* log *n*) for *m* albums, plus O(*n*) on the rare occasions keys
    ///   are spread out.
    func insert(placed: [(position: Int, album: Album)]) throws {
        let keys = try sortKeys(placing: placed.map(\.position))
        try insert(zip(placed, keys).map { ($0.album, $1) })
    }

    /// The sort keys that put albums at these positions, found in one walk through the library:
    /// what ``insert(placed:)`` and a bulk step's undo insert with.
    ///
    /// - Parameter positions: In ascending order, no position twice; each from 1 to the number of
    ///   albums there are once the ones before it are in, plus 1.
    /// - Returns: One key per position, ascending.
    /// - Throws: What ``insert(placed:)`` throws; may spread the library's keys out (``spreadKeys()``).
    func sortKeys(placing positions: [Int]) throws -> [Int64] {
        var keys: [Int64] = []
        var spread = false
        // Every key is found before any album goes in: the albums between two runs are there
        // already, so the walk is the same either way, and the rows then go in as one statement.
        computing: while true {
            keys.removeAll(keepingCapacity: true)
            keys.reserveCapacity(positions.count)
            var previous: (position: Int, key: Int64)?
            var start = positions.startIndex
            while start < positions.endIndex {
                // The run of consecutive positions from `start`, at most `maximumRun` long.
                var end = start + 1
                while end < positions.endIndex, positions[end] == positions[end - 1] + 1,
                    end - start < Self.maximumRun
                {
                    end += 1
                }
                let first = positions[start]
                if let previous, first <= previous.position {
                    throw LibraryError(
                        .invalidValue,
                        "position \(first) follows position \(previous.position): the positions must ascend")
                }
                guard let run = try sortKeys(count: end - start, at: first, after: previous) else {
                    guard !spread else { throw LibraryError(.storage, "cannot place \(end - start) albums: no room") }
                    // The neighbours are too close for the run: spread every key out, then start again.
                    try spreadKeys()
                    spread = true
                    continue computing
                }
                keys += run
                previous = (positions[end - 1], run[run.count - 1])
                start = end
            }
            return keys
        }
    }

    /// Inserts rows with their keys as one statement: with the search index's triggers, one
    /// statement per album costs a flush of the index each (its savepoint), which dominated.
    private func insert(_ rows: [(album: Album, key: Int64)]) throws {
        guard !rows.isEmpty else { return }
        var ids = JSONRows()
        for row in rows { ids.string(row.album.id) }
        if let taken = try database.fetchOne(
            "SELECT id FROM album WHERE id IN (SELECT value FROM json_each(?)) LIMIT 1", [ids.text])
        {
            throw LibraryError(.invalidValue, "id \(try taken.decode(String.self, at: 0)) is already in the library")
        }
        var values = JSONRows()
        for row in rows {
            let album = row.album
            values.beginRow()
            values.string(album.id)
            values.integer(row.key)
            values.string(album.title)
            values.string(album.artist)
            values.string(album.genre)
            values.integer(album.year)
            values.string(album.coverURL?.absoluteString)
            values.string(SearchText.of(album))
            values.endRow()
        }
        try database.execute(
            """
            INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
            FROM json_each(?) ORDER BY key
            """,
            [values.text]
        )
    }

    /// Removes the albums with these ids as one statement (see ``insert(placed:)`` for why one).
    ///
    /// - Throws: ``LibraryError/Code/storage`` when one of them is not in the library
    ///   (`operation` names what was refused), or `DatabaseError`.
    func removeAlbums(withIDs ids: [UUID], for operation: String) throws {
        guard !ids.isEmpty else { return }
        var array = JSONRows()
        for id in ids { array.string(id) }
        try database.execute("DELETE FROM album WHERE id IN (SELECT value FROM json_each(?))", [array.text])
        try Self.expect(database.changedRowCount == ids.count, operation)
    }

    /// Inserts albums at consecutive positions starting at `position`, in order.
    ///
    /// - Parameters:
    ///   - albums: The albums; none of their ids may be in the library.
    ///   - position: From 1 to ``count()`` + 1; the last album ends at `position + albums.count - 1`.
    /// - Throws: What ``insert(placed:)`` throws.
    /// - Complexity: O(*position* + *m* log *n*) for *m* albums.
    func insert(contentsOf albums: [Album], at position: Int) throws {
        try insert(placed: albums.enumerated().map { (position: position + $0.offset, album: $0.element) })
    }

    /// The longest run given keys at once: after a spread the gap between two neighbours
    /// (``keyGap``) holds it.
    static var maximumRun: Int { Int(keyGap / 2) }

    /// Up to `limit` sort keys after `key` (from the first when `nil`), skipping `offset`, in order.
    private func keys(after key: Int64?, offset: Int, limit: Int) throws -> [Int64] {
        #if PostgreSQL
        if let server { return try server.keys(after: key, offset: offset, limit: limit) }
        #endif
        guard let key else {
            return try database.fetchAll(
                "SELECT sort_key FROM album ORDER BY sort_key LIMIT ? OFFSET ?", [limit, offset]
            ).map { try $0.decode(Int64.self, at: 0) }
        }
        return try database.fetchAll(
            "SELECT sort_key FROM album WHERE sort_key > ? ORDER BY sort_key LIMIT ? OFFSET ?", [key, limit, offset]
        ).map { try $0.decode(Int64.self, at: 0) }
    }

    /// `count` ascending keys for albums at `position`…, between the albums that will be their
    /// neighbours, or `nil` when the gap between those is too small.
    private func sortKeys(count: Int, at position: Int, after previous: (position: Int, key: Int64)?) throws -> [Int64]?
    {
        guard position >= 1 else { throw try outOfRange(position, limit: self.count() + 1) }
        let before: Int64?
        let after: Int64?
        if let previous {
            // Step on from the album put in last: the albums between it and `position` are there already.
            let between = position - previous.position - 1
            if between == 0 {
                before = previous.key
                after = try keys(after: previous.key, offset: 0, limit: 1).first
            } else {
                let rows = try keys(after: previous.key, offset: between - 1, limit: 2)
                guard let first = rows.first else { throw try outOfRange(position, limit: self.count() + 1) }
                before = first
                after = rows.count > 1 ? rows[1] : nil
            }
        } else {
            let rows = try keys(after: nil, offset: max(0, position - 2), limit: 2)
            if position == 1 {
                before = nil
                after = rows.first
            } else {
                guard let first = rows.first else { throw try outOfRange(position, limit: self.count() + 1) }
                before = first
                after = rows.count > 1 ? rows[1] : nil
            }
        }
        let step = Int64(count)
        switch (before, after) {
        case (nil, nil): return (0..<step).map { $0 * Self.keyGap }
        case (let before?, nil): return (1...step).map { before + $0 * Self.keyGap }
        case (nil, let after?): return (0..<step).map { after - (step - $0) * Self.keyGap }
        case (let before?, let after?):
            let gap = (after - before) / (step + 1)
            guard gap >= 1 else { return nil }
            return (1...step).map { before + $0 * gap }
        }
    }
}
