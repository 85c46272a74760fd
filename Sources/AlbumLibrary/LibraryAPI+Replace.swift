import Foundation
import SQLiteDatabase

extension LibraryAPI {
    /// Moves every album, in order, into the `replaced_album` table under `batch`, and their stored
    /// covers into `kept_cover` under the same id.
    ///
    /// - Returns: How many albums were set aside.
    func setAsideAlbums(_ batch: UUID) throws -> Int {
        #if PostgreSQL
        if let server {
            let count = try server.setAsideAlbums(batch)
            try server.setAsideCovers(batch)
            return count
        }
        #endif
        let count = try count()
        try database.execute(
            """
            INSERT INTO replaced_album (batch, seq, id, title, artist, genre, year, cover, search_text)
            SELECT ?, row_number() OVER (ORDER BY sort_key) - 1, id, title, artist, genre, year, cover, search_text
            FROM album ORDER BY sort_key
            """,
            [batch.uuidString]
        )
        try database.execute("DELETE FROM album")
        try setAsideCovers(batch)
        return count
    }

    /// Moves the albums set aside under `batch` back into the library, at its end, in order.
    func restoreAlbums(_ batch: UUID, expectedCount: Int) throws {
        let kept = try stagedCount(in: .replacedAlbum, batch: batch)
        try Self.expect(kept == expectedCount, "undo Replace")
        try moveBatchToEnd(batch, from: .replacedAlbum)
        try restoreCovers(batch)
    }

    /// Deletes what a replacement keeps outside the library: the albums it set aside (while done)
    /// or its new albums, staged again (while undone).
    func discardReplacement(_ batch: UUID) throws {
        #if PostgreSQL
        if let server {
            try server.discardBatch(batch, in: .replacedAlbum)
            try server.discardBatch(batch, in: .importBatch)
            return try server.discardKeptCovers(batch)
        }
        #endif
        try database.execute("DELETE FROM replaced_album WHERE batch = ?", [batch.uuidString])
        try database.execute("DELETE FROM import_batch WHERE batch = ?", [batch.uuidString])
        try discardKeptCovers(batch)
    }
}
