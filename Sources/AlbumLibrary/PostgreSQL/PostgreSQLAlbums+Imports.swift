#if PostgreSQL
import Foundation
import PostgreSQLDatabase

// Imports and replacements on a server: the albums an import keeps outside the library while its
// step is undone (`import_batch`), and those a replacement set aside (`replaced_album`), as on a
// library file (LibraryAPI+ImportStaging, LibraryAPI+Replace). Each move between a batch and the
// library is one statement (a `DELETE … RETURNING` feeding an `INSERT … SELECT`), so an import's
// redo or undo costs one round trip whatever its size.

extension PostgreSQLAlbums {
    /// The albums staged per statement: each batch of rows is one bound JSON array.
    static let stagingChunk = 1024

    /// Stores `albums` under `batch`, in order, `stagingChunk` a statement.
    func stage(_ albums: [Album], in batch: UUID, progress: ((Int) -> Void)?) throws {
        var start = 0
        while start < albums.count {
            let end = min(start + Self.stagingChunk, albums.count)
            var rows = JSONRows()
            for album in albums[start..<end] {
                rows.album(album, searchText: SearchText.of(album))
            }
            try connection.execute(
                """
                INSERT INTO import_batch (batch, seq, id, title, artist, genre, year, cover, search_text)
                SELECT $1, $2::integer + staged.ordinality::integer - 1, staged.value ->> 0, staged.value ->> 1,
                       staged.value ->> 2, staged.value ->> 3, (staged.value ->> 4)::integer, staged.value ->> 5,
                       staged.value ->> 6
                FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS staged (value, ordinality)
                """,
                [batch.uuidString, start, rows.text])
            start = end
            progress?(end)
        }
        if albums.isEmpty { progress?(0) }
    }

    /// The number of albums in `table` (under `batch`, or in every batch).
    func stagedCount(in table: LibraryAPI.BatchTable, batch: UUID? = nil) throws -> Int {
        // The table's name is one of BatchTable's two constants; every value is bound.
        try connection.query(
            "SELECT count(*) FROM \(table.rawValue) WHERE $1::text IS NULL OR batch = $1", [batch?.uuidString]
        ).first?.decode(Int.self, at: 0) ?? 0
    }

    /// The first album staged under `batch` whose id is in the library: its place (0-based) and id.
    func firstClash(inBatch batch: UUID) throws -> (seq: Int, id: String)? {
        guard
            let row = try connection.query(
                """
                SELECT b.seq, b.id FROM import_batch b JOIN album a ON a.id = b.id WHERE b.batch = $1
                ORDER BY b.seq LIMIT 1
                """, [batch.uuidString]
            ).first
        else { return nil }
        return (try row.decode(Int.self, at: 0) ?? 0, try row.decode(String.self, at: 1) ?? "")
    }

    /// Appends the albums kept under `batch` in `table` to the end of the library, in order, `gap`
    /// apart, and empties the batch: one statement.
    func moveBatchToEnd(_ batch: UUID, from table: LibraryAPI.BatchTable, gap: Int64) throws {
        // The table's name is one of BatchTable's two constants; every value is bound.
        try connection.execute(
            """
            WITH moved AS (DELETE FROM \(table.rawValue) WHERE batch = $1 RETURNING *)
            INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
            SELECT id, (SELECT coalesce(max(sort_key), 0) FROM album) + (seq + 1) * $2::bigint, title, artist, genre,
                   year, cover, search_text
            FROM moved ORDER BY seq
            """, [batch.uuidString, gap])
    }

    /// Moves `count` albums from the key `first` on into `batch` of `import_batch`, in order (an
    /// import's undo, a replacement's): one statement.
    func restage(_ batch: UUID, fromKey first: Int64, count: Int) throws -> Int {
        try connection.execute(
            """
            WITH moved AS (
                DELETE FROM album WHERE id IN (SELECT id FROM album WHERE sort_key >= $2 ORDER BY sort_key LIMIT $3)
                RETURNING *
            )
            INSERT INTO import_batch (batch, seq, id, title, artist, genre, year, cover, search_text)
            SELECT $1, row_number() OVER (ORDER BY sort_key) - 1, id, title, artist, genre, year, cover, search_text
            FROM moved
            """, [batch.uuidString, first, count])
    }

    /// Moves every album, in order, into `replaced_album` under `batch`; returns how many.
    func setAsideAlbums(_ batch: UUID) throws -> Int {
        try connection.execute(
            """
            WITH moved AS (DELETE FROM album RETURNING *)
            INSERT INTO replaced_album (batch, seq, id, title, artist, genre, year, cover, search_text)
            SELECT $1, row_number() OVER (ORDER BY sort_key) - 1, id, title, artist, genre, year, cover, search_text
            FROM moved
            """, [batch.uuidString])
    }

    /// Deletes what `table` keeps under `batch`.
    func discardBatch(_ batch: UUID, in table: LibraryAPI.BatchTable) throws {
        // The table's name is one of BatchTable's two constants; every value is bound.
        try connection.execute("DELETE FROM \(table.rawValue) WHERE batch = $1", [batch.uuidString])
    }

    /// The search text, title, artist and year of the albums whose folded title is among `titles`
    /// (or whose title holds a line feed, which the search text's first line does not fold):
    /// what an import's duplicate check compares, read in one statement.
    func duplicateCandidates(
        titled titles: Set<String>
    ) throws -> [(
        searchText: String, title: String, artist: String, year: Int?
    )] {
        var array = JSONRows()
        for title in titles.sorted() { array.string(title) }
        return try connection.query(
            """
            SELECT search_text, title, artist, year FROM album
            WHERE split_part(search_text, chr(10), 1) IN (SELECT jsonb_array_elements_text($1::jsonb))
               OR strpos(title, chr(10)) > 0
            """, [array.text]
        ).map { row in
            (
                try row.decode(String.self, at: 0) ?? "", try row.decode(String.self, at: 1) ?? "",
                try row.decode(String.self, at: 2) ?? "", try row.decode(Int.self, at: 3)
            )
        }
    }

    /// Runs `body` in a transaction rolled back at its end, whatever it wrote: an import's dry run
    /// decides as the import would, changing nothing.
    func inRolledBackTransaction(_ body: () throws -> Void) throws {
        struct RolledBack: Error {}
        do {
            try connection.inTransaction(.repeatableRead) {
                try body()
                throw RolledBack()
            }
        } catch is RolledBack {}
    }
}
#endif
