import Foundation
import SQLiteDatabase

// The albums a bulk step keeps (`bulk_album`, schema version 5; ``BulkChangeCommand``): copied
// from the library as they were, with their positions, when the step is pushed; put back with one
// statement each way. One statement, never one per album: each statement inside the transaction
// opens a savepoint, at which the search index (FTS5) flushes its pending terms.

extension LibraryAPI {
    /// Copies the albums with these ids, as they are now, into `bulk_album` under `batch`, in the
    /// order given, each with its position.
    ///
    /// - Throws: ``LibraryError/Code/storage`` when one of them is not in the library, or
    ///   `DatabaseError`.
    func stageBulk(_ batch: UUID, _ members: [(position: Int, id: UUID)], for operation: String) throws {
        guard !members.isEmpty else { return }
        var rows = JSONRows()
        for member in members {
            rows.beginRow()
            rows.string(member.id)
            rows.integer(member.position)
            rows.endRow()
        }
        #if PostgreSQL
        if let server {
            return try Self.expect(try server.stageBulk(batch, members: rows.text) == members.count, operation)
        }
        #endif
        try database.execute(
            """
            INSERT INTO bulk_album (batch, seq, position, id, title, artist, genre, year, cover, search_text)
            SELECT ?, member.key, member.value ->> 1, album.id, album.title, album.artist, album.genre, album.year,
                album.cover, album.search_text
            FROM json_each(?) AS member CROSS JOIN album ON album.id = member.value ->> 0
            """,
            [batch.uuidString, rows.text])
        try Self.expect(database.changedRowCount == members.count, operation)
    }

    /// The positions the albums kept under `batch` had, in order.
    ///
    /// - Throws: ``LibraryError/Code/storage`` when the table does not hold `count` of them.
    func stagedPositions(_ batch: UUID, count: Int, for operation: String) throws -> [Int] {
        #if PostgreSQL
        if let server {
            let positions = try server.stagedPositions(batch)
            try Self.expect(positions.count == count, operation)
            return positions
        }
        #endif
        var positions: [Int] = []
        positions.reserveCapacity(count)
        let statement = try database.cachedStatement("SELECT position FROM bulk_album WHERE batch = ? ORDER BY seq")
        try statement.readEachRow([batch.uuidString]) { columns in positions.append(Int(try columns.integer(at: 0))) }
        try Self.expect(positions.count == count, operation)
        return positions
    }

    /// The albums kept under `batch`, in order, as they were kept.
    func stagedAlbums(_ batch: UUID) throws -> [Album] {
        #if PostgreSQL
        if let server { return try server.stagedAlbums(batch) }
        #endif
        var albums: [Album] = []
        let statement = try database.cachedStatement(
            "SELECT id, title, artist, genre, year, cover FROM bulk_album WHERE batch = ? ORDER BY seq")
        try statement.readEachRow([batch.uuidString]) { columns in albums.append(try Self.album(from: columns)) }
        return albums
    }

    /// Removes from the library the albums kept under `batch` (found by id), as one statement.
    ///
    /// - Throws: ``LibraryError/Code/storage`` when not all `count` of them are there.
    func removeStagedAlbums(_ batch: UUID, count: Int, for operation: String) throws {
        #if PostgreSQL
        if let server { return try Self.expect(try server.removeStagedAlbums(batch) == count, operation) }
        #endif
        try database.execute(
            "DELETE FROM album WHERE id IN (SELECT id FROM bulk_album WHERE batch = ?)", [batch.uuidString])
        try Self.expect(database.changedRowCount == count, operation)
    }

    /// Inserts the albums kept under `batch`, as they were kept, so that each ends up at its
    /// position (in the order of `positions`, ascending): one `INSERT … SELECT`, the keys found in
    /// one walk through the library (``sortKeys(placing:)``).
    ///
    /// - Throws: ``LibraryError/Code/invalidValue`` when one of their ids is in the library,
    ///   ``LibraryError/Code/storage`` when the table does not hold one album per position.
    func insertStagedAlbums(_ batch: UUID, at positions: [Int], for operation: String) throws {
        guard !positions.isEmpty else { return }
        let keys = try sortKeys(placing: positions)
        #if PostgreSQL
        if let server {
            // Checked first: a failed statement would end the server's transaction.
            if let taken = try server.firstStagedAlbumInLibrary(batch) {
                throw LibraryError(.invalidValue, "id \(taken) is already in the library")
            }
            let inserted = try server.insertStagedAlbums(batch, keys: Self.jsonArray(of: keys))
            return try Self.expect(inserted == positions.count, operation)
        }
        #endif
        do {
            // The keys by `seq` (their index in the array); each looks up its row by primary key.
            // json_each reads the array in order, so no ORDER BY (which would sort in a temporary tree).
            try database.execute(
                """
                INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
                SELECT kept.id, key.value, kept.title, kept.artist, kept.genre, kept.year, kept.cover, kept.search_text
                FROM json_each(?) AS key CROSS JOIN bulk_album AS kept ON kept.batch = ? AND kept.seq = key.key
                """,
                [Self.jsonArray(of: keys), batch.uuidString])
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .constraint {
            // The id column is unique: an album with one of these ids is in the library.
            let taken = try database.fetchOne(
                "SELECT kept.id FROM bulk_album AS kept JOIN album ON album.id = kept.id WHERE kept.batch = ? LIMIT 1",
                [batch.uuidString])
            guard let taken else { throw error }
            throw LibraryError(.invalidValue, "id \(try taken.decode(String.self, at: 0)) is already in the library")
        }
        try Self.expect(database.changedRowCount == positions.count, operation)
    }

    private static func jsonArray(of keys: [Int64]) -> String {
        var array = JSONRows()
        for key in keys { array.integer(key) }
        return array.text
    }

    /// The album columns a bulk edit writes, each way: the narrowest set of statements that
    /// covers every value the edit changes. Each column in an `UPDATE`'s `SET` list costs its
    /// index's upkeep (the title's), and a text column costs the search index's trigger, which
    /// deletes and inserts the album's search document: an edit of the year alone needs neither.
    enum EditedColumns: String, Codable, Sendable, Hashable {
        /// The year and the cover (no index, no search text).
        case yearAndCover
        /// The genre, the year, the cover and the search text (not the title and its index).
        case allButTitleAndArtist
        /// Every column.
        case all

        /// The narrowest that covers every difference between an album and its edited self.
        init(before: [Album], after: [Album]) {
            var columns = Self.yearAndCover
            for (old, new) in zip(before, after) {
                if old.title != new.title || old.artist != new.artist { columns = .all }
                if old.genre != new.genre, columns == .yearAndCover { columns = .allButTitleAndArtist }
                if columns == .all { break }
            }
            self = columns
        }
    }

    /// Gives the albums of the library with these albums' ids these albums' values in `columns`, as
    /// one `UPDATE … FROM` over a bound JSON array (a bulk edit's redo).
    ///
    /// - Throws: ``LibraryError/Code/storage`` when one of them is not in the library.
    func setValues(_ albums: [Album], columns: EditedColumns, for operation: String) throws {
        guard !albums.isEmpty else { return }
        var rows = JSONRows()
        for album in albums {
            rows.album(album, searchText: columns == .yearAndCover ? nil : SearchText.of(album))
        }
        #if PostgreSQL
        if let server {
            return try Self.expect(try server.setValues(rows.text, columns: columns) == albums.count, operation)
        }
        #endif
        // One complete statement per set of columns (no SQL assembled): every value is bound.
        let sql =
            switch columns {
            case .yearAndCover:
                """
                UPDATE album SET year = row.value ->> 4, cover = row.value ->> 5
                FROM json_each(?) AS row WHERE album.id = row.value ->> 0
                """
            case .allButTitleAndArtist:
                """
                UPDATE album SET genre = row.value ->> 3, year = row.value ->> 4, cover = row.value ->> 5,
                    search_text = row.value ->> 6
                FROM json_each(?) AS row WHERE album.id = row.value ->> 0
                """
            case .all:
                """
                UPDATE album SET title = row.value ->> 1, artist = row.value ->> 2, genre = row.value ->> 3,
                    year = row.value ->> 4, cover = row.value ->> 5, search_text = row.value ->> 6
                FROM json_each(?) AS row WHERE album.id = row.value ->> 0
                """
            }
        try database.execute(sql, [rows.text])
        try Self.expect(database.changedRowCount == albums.count, operation)
    }

    /// Gives the albums kept under `batch` back the values in `columns` they were kept with, as one
    /// `UPDATE … FROM` (a bulk edit's undo).
    ///
    /// - Throws: ``LibraryError/Code/storage`` when not all `count` of them are in the library.
    func restoreStagedValues(_ batch: UUID, count: Int, columns: EditedColumns, for operation: String) throws {
        #if PostgreSQL
        if let server {
            return try Self.expect(try server.restoreStagedValues(batch, columns: columns) == count, operation)
        }
        #endif
        let sql =
            switch columns {
            case .yearAndCover:
                """
                UPDATE album SET year = kept.year, cover = kept.cover
                FROM bulk_album AS kept WHERE kept.batch = ? AND album.id = kept.id
                """
            case .allButTitleAndArtist:
                """
                UPDATE album SET genre = kept.genre, year = kept.year, cover = kept.cover, search_text = kept.search_text
                FROM bulk_album AS kept WHERE kept.batch = ? AND album.id = kept.id
                """
            case .all:
                """
                UPDATE album SET title = kept.title, artist = kept.artist, genre = kept.genre, year = kept.year,
                    cover = kept.cover, search_text = kept.search_text
                FROM bulk_album AS kept WHERE kept.batch = ? AND album.id = kept.id
                """
            }
        try database.execute(sql, [batch.uuidString])
        try Self.expect(database.changedRowCount == count, operation)
    }

    /// Moves the cover images the albums kept under `batch` show to `kept_cover`, under the same
    /// id (a bulk delete; its undo shows them again with ``restoreCovers(_:)``).
    func keepCoversOfStagedAlbums(_ batch: UUID) throws {
        guard try hasAnyCover() else { return }
        #if PostgreSQL
        if let server { return try server.keepCoversOfStagedAlbums(batch) }
        #endif
        try database.execute(
            """
            INSERT INTO kept_cover (slot, album_id, image)
            SELECT ?1, album_id, image FROM album_cover WHERE album_id IN (SELECT id FROM bulk_album WHERE batch = ?1)
            """,
            [batch.uuidString])
        try database.execute(
            "DELETE FROM album_cover WHERE album_id IN (SELECT id FROM bulk_album WHERE batch = ?)",
            [batch.uuidString])
    }

    /// Deletes what a bulk step keeps: its albums and the cover images kept under its batch (its
    /// entry left the history).
    func discardStagedBulk(_ batch: UUID) throws {
        #if PostgreSQL
        if let server {
            try server.discardStagedBulk(batch)
            return try discardKeptCovers(batch)
        }
        #endif
        try database.execute("DELETE FROM bulk_album WHERE batch = ?", [batch.uuidString])
        try discardKeptCovers(batch)
    }

    /// The number of albums bulk steps keep in `bulk_album`, all steps together.
    ///
    /// - Throws: `DatabaseError`.
    public func stagedBulkAlbumCount() throws -> Int {
        #if PostgreSQL
        if let server { return try server.stagedBulkAlbumCount() }
        #endif
        return try database.fetchOne("SELECT count(*) FROM bulk_album")?.decode(Int.self, at: 0) ?? 0
    }
}
