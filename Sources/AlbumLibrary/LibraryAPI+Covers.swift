public import Foundation
import SQLiteDatabase

// Cover images (schema version 4, LibraryFile+Covers.swift). An album's image is in `album_cover`
// while the album is in the library; a step that takes it away (a removal, a replacement, a
// delete) moves it to `kept_cover` under the step's slot, and its undo moves it back: a swap of
// owners, so the image's bytes are written once, when it is first stored.

extension LibraryAPI {
    /// What the library stores about the cover image of the album with `id`, without its bytes.
    ///
    /// - Parameter id: The album's id.
    /// - Returns: The summary, or `nil` when the album has no stored cover (or is not in the library).
    /// - Throws: `DatabaseError` if the library cannot be read.
    public func coverSummary(of id: UUID) throws -> CoverSummary? {
        guard let image = try shownImage(of: id) else { return nil }
        return try summary(ofImage: image)
    }

    /// The stored cover image of the album with `id`.
    ///
    /// - Parameter id: The album's id.
    /// - Returns: The image, or `nil` when the album has none.
    /// - Throws: `DatabaseError` if the library cannot be read.
    public func cover(of id: UUID) throws -> CoverImage? {
        guard let image = try shownImage(of: id),
            let row = try database.fetchOne(
                "SELECT media_type, sha256, bytes FROM cover_image WHERE id = ?", [image])
        else { return nil }
        return CoverImage(
            bytes: try row.decode(Data.self, at: 2), mediaType: try row.decode(String.self, at: 0),
            hash: try row.decode(String.self, at: 1))
    }

    /// What the library stores of the cover images of the albums among `ids` that have one (a
    /// listing's batch).
    ///
    /// - Parameter ids: Album ids.
    /// - Returns: The summaries, by album id; absent for an album without a stored cover.
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: One statement when no album has a stored cover, else one index look-up per id.
    public func coverSummaries(of ids: [UUID]) throws -> [UUID: CoverSummary] {
        var found: [UUID: CoverSummary] = [:]
        #if PostgreSQL
        if server != nil { return found }
        #endif
        guard !ids.isEmpty, try database.fetchOne("SELECT 1 FROM album_cover LIMIT 1") != nil else { return found }
        let statement = try database.cachedStatement(
            """
            SELECT media_type, sha256, byte_count FROM album_cover JOIN cover_image ON cover_image.id = album_cover.image
            WHERE album_id = ?
            """)
        for id in ids {
            try statement.readEachRow([id.uuidString]) { columns in
                found[id] = CoverSummary(
                    mediaType: try columns.text(at: 0), hash: try columns.text(at: 1),
                    byteCount: Int(try columns.integer(at: 2)))
            }
        }
        return found
    }

    /// Stores `image` under `slot` for the album with `albumID`, not shown yet: the step that
    /// sets it swaps it in (``swapCover(of:withKept:)``).
    func keep(_ image: CoverImage, in slot: UUID, for albumID: UUID) throws {
        try database.execute(
            "INSERT INTO cover_image (media_type, sha256, byte_count, bytes) VALUES (?, ?, ?, ?)",
            [image.mediaType, image.hash, image.bytes.count, image.bytes])
        try database.execute(
            "INSERT INTO kept_cover (slot, album_id, image) VALUES (?, ?, ?)",
            [slot.uuidString, albumID.uuidString, database.lastInsertedRowID])
    }

    /// Exchanges the album's shown cover with the one kept under `slot` for it (either may be
    /// absent): a cover step's redo and undo, and a delete's.
    func swapCover(of albumID: UUID, withKept slot: UUID) throws {
        let shown = try shownImage(of: albumID)
        let kept = try database.fetchOne(
            "SELECT image FROM kept_cover WHERE slot = ? AND album_id = ?", [slot.uuidString, albumID.uuidString]
        )?.decode(Int64.self, at: 0)
        try database.execute("DELETE FROM album_cover WHERE album_id = ?", [albumID.uuidString])
        try database.execute(
            "DELETE FROM kept_cover WHERE slot = ? AND album_id = ?", [slot.uuidString, albumID.uuidString])
        if let kept {
            try database.execute("INSERT INTO album_cover (album_id, image) VALUES (?, ?)", [albumID.uuidString, kept])
        }
        if let shown {
            try database.execute(
                "INSERT INTO kept_cover (slot, album_id, image) VALUES (?, ?, ?)",
                [slot.uuidString, albumID.uuidString, shown])
        }
    }

    /// Whether the album with `id` shows a cover now.
    func hasCover(_ id: UUID) throws -> Bool {
        try shownImage(of: id) != nil
    }

    /// Whether any album shows a stored cover.
    func hasAnyCover() throws -> Bool {
        #if PostgreSQL
        if server != nil { return false }
        #endif
        return try database.fetchOne("SELECT 1 FROM album_cover LIMIT 1") != nil
    }

    /// Moves every shown cover under `slot` (a replacement sets the library's albums aside).
    func setAsideCovers(_ slot: UUID) throws {
        try database.execute(
            "INSERT INTO kept_cover (slot, album_id, image) SELECT ?, album_id, image FROM album_cover",
            [slot.uuidString])
        try database.execute("DELETE FROM album_cover")
    }

    /// Shows again every cover kept under `slot` (undoing a replacement).
    func restoreCovers(_ slot: UUID) throws {
        #if PostgreSQL
        if server != nil { return }  // No covers on a server yet (hasAnyCover): none was kept.
        #endif
        try database.execute(
            "INSERT INTO album_cover (album_id, image) SELECT album_id, image FROM kept_cover WHERE slot = ?",
            [slot.uuidString])
        try database.execute("DELETE FROM kept_cover WHERE slot = ?", [slot.uuidString])
    }

    /// Deletes the images kept under `slot`: the step that kept them left the history.
    func discardKeptCovers(_ slot: UUID) throws {
        #if PostgreSQL
        if server != nil { return }  // No covers on a server yet (hasAnyCover): none was kept.
        #endif
        try database.execute(
            "DELETE FROM cover_image WHERE id IN (SELECT image FROM kept_cover WHERE slot = ?)", [slot.uuidString])
        try database.execute("DELETE FROM kept_cover WHERE slot = ?", [slot.uuidString])
    }

    private func shownImage(of id: UUID) throws -> Int64? {
        #if PostgreSQL
        // A library on a server stores no images (cover set is refused there).
        if server != nil { return nil }
        #endif
        return try database.fetchOne("SELECT image FROM album_cover WHERE album_id = ?", [id.uuidString])?
            .decode(Int64.self, at: 0)
    }

    private func summary(ofImage image: Int64) throws -> CoverSummary? {
        guard
            let row = try database.fetchOne(
                "SELECT media_type, sha256, byte_count FROM cover_image WHERE id = ?", [image])
        else { return nil }
        return CoverSummary(
            mediaType: try row.decode(String.self, at: 0), hash: try row.decode(String.self, at: 1),
            byteCount: try row.decode(Int.self, at: 2))
    }
}
