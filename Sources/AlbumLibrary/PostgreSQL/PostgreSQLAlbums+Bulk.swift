#if PostgreSQL
import Foundation
import PostgreSQLDatabase

// The albums a bulk step keeps on a server (`bulk_album`, schema version 3), as a library file
// keeps them (LibraryFile+BulkStaging.swift): copied with their positions when the step is pushed,
// put back with one statement each way, every list of values one bound JSON parameter read with
// `jsonb_array_elements`. Every statement runs on the history's connection, inside the change's
// transaction.

extension PostgreSQLAlbums {
    /// Schema version 3: the albums a bulk step keeps for its undo and redo.
    static let bulkStagingMigration = PostgreSQLMigration(
        version: 3, name: "bulk steps' albums",
        statements: [
            """
            CREATE TABLE bulk_album (
                batch text NOT NULL,
                seq integer NOT NULL,
                position integer NOT NULL,
                id text NOT NULL,
                title text NOT NULL,
                artist text NOT NULL,
                genre text NOT NULL DEFAULT '',
                year integer,
                cover text,
                search_text text NOT NULL DEFAULT '',
                PRIMARY KEY (batch, seq)
            )
            """
        ])

    /// Copies the albums a JSON array of `[id, position]` rows names, as they are now, under
    /// `batch`, in the array's order; returns how many were copied.
    func stageBulk(_ batch: UUID, members json: String) throws -> Int {
        try connection.execute(
            """
            INSERT INTO bulk_album (batch, seq, position, id, title, artist, genre, year, cover, search_text)
            SELECT $1, member.seq - 1, (member.value ->> 1)::integer, album.id, album.title, album.artist,
                album.genre, album.year, album.cover, album.search_text
            FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS member (value, seq)
            JOIN album ON album.id = member.value ->> 0
            """,
            [batch.uuidString, json])
    }

    /// The positions the albums kept under `batch` had, in order.
    func stagedPositions(_ batch: UUID) throws -> [Int] {
        try connection.query("SELECT position FROM bulk_album WHERE batch = $1 ORDER BY seq", [batch.uuidString])
            .map { row in
                guard let position = try row.decode(Int.self, at: 0) else {
                    throw LibraryError(.storage, "a bulk step keeps an album without a position")
                }
                return position
            }
    }

    /// The albums kept under `batch`, in order, as they were kept.
    func stagedAlbums(_ batch: UUID) throws -> [Album] {
        try connection.query(
            "SELECT id, title, artist, genre, year, cover, 0 FROM bulk_album WHERE batch = $1 ORDER BY seq",
            [batch.uuidString]
        ).map { try Self.located($0).album }
    }

    /// Removes from the library the albums kept under `batch`; returns how many went.
    func removeStagedAlbums(_ batch: UUID) throws -> Int {
        try connection.execute(
            "DELETE FROM album WHERE id IN (SELECT id FROM bulk_album WHERE batch = $1)", [batch.uuidString])
    }

    /// The id of an album kept under `batch` that is in the library, if one is.
    func firstStagedAlbumInLibrary(_ batch: UUID) throws -> String? {
        try connection.query(
            "SELECT kept.id FROM bulk_album AS kept JOIN album ON album.id = kept.id WHERE kept.batch = $1 LIMIT 1",
            [batch.uuidString]
        ).first?.decode(String.self, at: 0)
    }

    /// Inserts the albums kept under `batch`, as they were kept, the first with the first key of
    /// the JSON array `keys`, and so on; returns how many went in.
    func insertStagedAlbums(_ batch: UUID, keys: String) throws -> Int {
        try connection.execute(
            """
            INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
            SELECT kept.id, placed.value::bigint, kept.title, kept.artist, kept.genre, kept.year, kept.cover,
                kept.search_text
            FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS placed (value, seq)
            JOIN bulk_album AS kept ON kept.batch = $2 AND kept.seq = placed.seq - 1
            """,
            [keys, batch.uuidString])
    }

    /// Gives the albums a JSON array of rows names (id, title, artist, genre, year, cover, search
    /// text) those values in `columns`; returns how many changed.
    func setValues(_ json: String, columns: LibraryAPI.EditedColumns) throws -> Int {
        // One complete statement per set of columns (no SQL assembled): every value is bound.
        let sql =
            switch columns {
            case .yearAndCover:
                """
                UPDATE album SET year = (edited.value ->> 4)::integer, cover = edited.value ->> 5
                FROM jsonb_array_elements($1::jsonb) AS edited (value) WHERE album.id = edited.value ->> 0
                """
            case .allButTitleAndArtist:
                """
                UPDATE album SET genre = edited.value ->> 3, year = (edited.value ->> 4)::integer,
                    cover = edited.value ->> 5, search_text = edited.value ->> 6
                FROM jsonb_array_elements($1::jsonb) AS edited (value) WHERE album.id = edited.value ->> 0
                """
            case .all:
                """
                UPDATE album SET title = edited.value ->> 1, artist = edited.value ->> 2, genre = edited.value ->> 3,
                    year = (edited.value ->> 4)::integer, cover = edited.value ->> 5, search_text = edited.value ->> 6
                FROM jsonb_array_elements($1::jsonb) AS edited (value) WHERE album.id = edited.value ->> 0
                """
            }
        return try connection.execute(sql, [json])
    }

    /// Gives the albums kept under `batch` back the values in `columns` they were kept with;
    /// returns how many changed.
    func restoreStagedValues(_ batch: UUID, columns: LibraryAPI.EditedColumns) throws -> Int {
        let sql =
            switch columns {
            case .yearAndCover:
                """
                UPDATE album SET year = kept.year, cover = kept.cover
                FROM bulk_album AS kept WHERE kept.batch = $1 AND album.id = kept.id
                """
            case .allButTitleAndArtist:
                """
                UPDATE album SET genre = kept.genre, year = kept.year, cover = kept.cover, search_text = kept.search_text
                FROM bulk_album AS kept WHERE kept.batch = $1 AND album.id = kept.id
                """
            case .all:
                """
                UPDATE album SET title = kept.title, artist = kept.artist, genre = kept.genre, year = kept.year,
                    cover = kept.cover, search_text = kept.search_text
                FROM bulk_album AS kept WHERE kept.batch = $1 AND album.id = kept.id
                """
            }
        return try connection.execute(sql, [batch.uuidString])
    }

    /// Deletes the albums kept under `batch` (its step left the history).
    func discardStagedBulk(_ batch: UUID) throws {
        try connection.execute("DELETE FROM bulk_album WHERE batch = $1", [batch.uuidString])
    }

    /// The number of albums every bulk step keeps.
    func stagedBulkAlbumCount() throws -> Int {
        try connection.query("SELECT count(*) FROM bulk_album").first?.decode(Int.self, at: 0) ?? 0
    }

    /// Up to `limit` keys after `key` (from the first when `nil`), skipping `offset`, in order.
    func keys(after key: Int64?, offset: Int, limit: Int) throws -> [Int64] {
        try connection.query(
            """
            SELECT sort_key FROM album WHERE $1::bigint IS NULL OR sort_key > $1
            ORDER BY sort_key LIMIT $2 OFFSET $3
            """,
            [key, limit, offset]
        ).map { row in
            guard let key = try row.decode(Int64.self, at: 0) else {
                throw LibraryError(.storage, "the library holds an album without a sort key")
            }
            return key
        }
    }
}
#endif
