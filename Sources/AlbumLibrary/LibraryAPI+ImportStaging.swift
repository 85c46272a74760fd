public import Foundation
import SQLiteDatabase

/// Import staging: the albums an import keeps outside the library while its step is undone
/// (`import_batch`), so that a redo, in this process or a later one, puts them back.
///
/// The import command owns them: it stages them in the transaction that pushes it, moves them
/// in on redo and back out on undo, and the history's discard action (registered with the
/// command, see ``LibraryAPI/commandRegistry``) deletes them when the step leaves the history.
extension LibraryAPI {

    /// Stores albums in a new import batch, outside the library, ready for ``ImportAlbumsCommand``.
    ///
    /// - Parameters:
    ///   - albums: The albums, in order.
    ///   - progress: Called now and then with the number staged so far.
    /// - Returns: The batch's id.
    /// - Throws: `DatabaseError`. Call it in the transaction that pushes the command.
    /// - Complexity: O(*m*) for *m* albums.
    public func stageImport(_ albums: [Album], progress: ((Int) -> Void)? = nil) throws -> UUID {
        let batch = UUID()
        #if PostgreSQL
        if let server {
            try server.stage(albums, in: batch, progress: progress)
            return batch
        }
        #endif
        let statement = try database.cachedStatement(
            """
            INSERT INTO import_batch (batch, seq, id, title, artist, genre, year, cover, search_text)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        for (offset, album) in albums.enumerated() {
            try statement.execute([
                batch.uuidString, offset, album.id.uuidString, album.title, album.artist, album.genre, album.year,
                album.coverURL?.absoluteString, SearchText.of(album),
            ])
            if offset % 1024 == 1023 { progress?(offset + 1) }
        }
        progress?(albums.count)
        return batch
    }

    /// Deletes the albums staged under `batch`: what an undone import keeps for its redo, once its
    /// entry has left the history (the registry's discard action for ``ImportAlbumsCommand``).
    ///
    /// - Parameter batch: The import's batch.
    /// - Throws: `DatabaseError`.
    func discardStagedImport(_ batch: UUID) throws {
        #if PostgreSQL
        if let server { return try server.discardBatch(batch, in: .importBatch) }
        #endif
        try database.execute("DELETE FROM import_batch WHERE batch = ?", [batch.uuidString])
    }

    /// The number of albums staged in import batches (those of undone imports).
    ///
    /// - Throws: `DatabaseError`.
    public func stagedImportCount() throws -> Int {
        #if PostgreSQL
        if let server { return try server.stagedCount(in: .importBatch) }
        #endif
        return try database.fetchOne("SELECT count(*) FROM import_batch")?.decode(Int.self, at: 0) ?? 0
    }

    /// Moves a staged batch to the end of the library, in order, and empties the batch.
    func unstageImport(_ batch: UUID, expectedCount: Int) throws {
        let staged = try stagedCount(in: .importBatch, batch: batch)
        guard staged == expectedCount else {
            throw LibraryError(.storage, "cannot import: \(staged) of \(expectedCount) albums are staged")
        }
        if let clash = try firstClash(inBatch: batch) {
            throw LibraryError(.invalidValue, "album \(clash.seq + 1): id \(clash.id) is already in the library")
        }
        try moveBatchToEnd(batch, from: .importBatch)
    }

    /// A table that keeps albums outside the library under a batch id, in `seq` order.
    enum BatchTable: String {
        /// Staged for an import's redo.
        case importBatch = "import_batch"
        /// Set aside by a replacement, for its undo.
        case replacedAlbum = "replaced_album"
    }

    /// Appends the albums kept under `batch` in `table` to the end of the library, in order, and
    /// empties the batch: an import's redo and a replacement's undo.
    func moveBatchToEnd(_ batch: UUID, from table: BatchTable) throws {
        #if PostgreSQL
        if let server { return try server.moveBatchToEnd(batch, from: table, gap: Self.keyGap) }
        #endif
        let last = try database.fetchOne("SELECT max(sort_key) FROM album")?.decode(Int64?.self, at: 0) ?? 0
        // The table's name is one of the two constants above; every value is bound.
        try database.execute(
            """
            INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
            SELECT id, ? + (seq + 1) * ?, title, artist, genre, year, cover, search_text
            FROM \(table.rawValue) WHERE batch = ? ORDER BY seq
            """,
            [last, Self.keyGap, batch.uuidString]
        )
        try database.execute("DELETE FROM \(table.rawValue) WHERE batch = ?", [batch.uuidString])
    }

    /// The number of albums kept under `batch` in `table`.
    func stagedCount(in table: BatchTable, batch: UUID) throws -> Int {
        #if PostgreSQL
        if let server { return try server.stagedCount(in: table, batch: batch) }
        #endif
        // The table's name is one of BatchTable's two constants; every value is bound.
        return try database.fetchOne("SELECT count(*) FROM \(table.rawValue) WHERE batch = ?", [batch.uuidString])?
            .decode(Int.self, at: 0) ?? 0
    }

    /// Moves `count` albums from `first` on back into a batch (undoing an import).
    func restageImport(_ batch: UUID, from first: Int, count: Int) throws {
        guard count > 0 else { return }
        let start = try located(at: first)
        _ = try located(at: first + count - 1)
        #if PostgreSQL
        if let server {
            return try Self.expect(
                try server.restage(batch, fromKey: start.sortKey, count: count) == count, "undo Import")
        }
        #endif
        try database.execute(
            """
            INSERT INTO import_batch (batch, seq, id, title, artist, genre, year, cover, search_text)
            SELECT ?, row_number() OVER (ORDER BY sort_key) - 1, id, title, artist, genre, year, cover, search_text
            FROM album WHERE sort_key >= ? ORDER BY sort_key LIMIT ?
            """,
            [batch.uuidString, start.sortKey, count]
        )
        try database.execute(
            "DELETE FROM album WHERE rowid IN (SELECT rowid FROM album WHERE sort_key >= ? ORDER BY sort_key LIMIT ?)",
            [start.sortKey, count]
        )
    }
}
