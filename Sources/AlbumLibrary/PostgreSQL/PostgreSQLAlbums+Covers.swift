#if PostgreSQL
import Foundation
import PostgreSQLDatabase

// Cover images on a server, as on a library file (LibraryAPI+Covers): `cover_image` holds the
// bytes (`bytea`, bound as a parameter), `album_cover` and `kept_cover` own them. A step moves the
// owner with one statement (data-modifying `WITH` clauses), never the bytes.

extension PostgreSQLAlbums {
    /// What the library stores about the cover the album with `id` shows, without its bytes.
    func coverSummary(of id: UUID) throws -> CoverSummary? {
        try connection.read([Self.coverSummaryRead(of: id)])[0].first.map(Self.summary)
    }

    static func coverSummaryRead(of id: UUID) -> PostgreSQLStatement {
        PostgreSQLStatement(
            """
            SELECT media_type, sha256, byte_count FROM album_cover JOIN cover_image ON cover_image.id = album_cover.image
            WHERE album_id = $1
            """, [id.uuidString], prepared: true)
    }

    /// The summaries of the covers the albums among `ids` show: one statement.
    func coverSummaries(of ids: [UUID]) throws -> [UUID: CoverSummary] {
        var array = JSONRows()
        for id in ids { array.string(id) }
        var found: [UUID: CoverSummary] = [:]
        for row in try connection.query(
            """
            SELECT media_type, sha256, byte_count, album_id
            FROM album_cover JOIN cover_image ON cover_image.id = album_cover.image
            WHERE album_id IN (SELECT jsonb_array_elements_text($1::jsonb))
            """, [array.text])
        {
            found[try Self.id(row, at: 3)] = try Self.summary(row)
        }
        return found
    }

    /// The cover image the album with `id` shows, bytes included.
    func cover(of id: UUID) throws -> CoverImage? {
        guard
            let row = try connection.query(
                """
                SELECT media_type, sha256, encode(bytes, 'hex')
                FROM album_cover JOIN cover_image ON cover_image.id = album_cover.image WHERE album_id = $1
                """, [id.uuidString]
            ).first
        else { return nil }
        // `encode(…, 'hex')`, not the column's text: that follows the server's `bytea_output`.
        guard let bytes = Data(postgreSQLText: "\\x" + (try row.decode(String.self, at: 2) ?? "")) else {
            throw LibraryError(.storage, "the library holds a cover image whose bytes cannot be read")
        }
        return CoverImage(
            bytes: bytes, mediaType: try row.decode(String.self, at: 0) ?? "",
            hash: try row.decode(String.self, at: 1) ?? "")
    }

    /// Whether any album shows a stored cover.
    func hasAnyCover() throws -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM album_cover)").first?.decode(Bool.self, at: 0) ?? false
    }

    /// Stores `image` under `slot` for the album with `albumID`, not shown yet: one statement.
    func keep(_ image: CoverImage, in slot: UUID, for albumID: UUID) throws {
        try connection.execute(
            """
            WITH stored AS (
                INSERT INTO cover_image (media_type, sha256, byte_count, bytes) VALUES ($1, $2, $3, $4::bytea)
                RETURNING id
            )
            INSERT INTO kept_cover (slot, album_id, image) SELECT $5, $6, id FROM stored
            """,
            [image.mediaType, image.hash, image.bytes.count, image.bytes, slot.uuidString, albumID.uuidString])
    }

    /// Exchanges the album's shown cover with the one kept under `slot` for it (either may be
    /// absent): two round trips, the owners read, then moved in one pipeline. (One statement
    /// cannot: a row a `WITH` clause deletes still holds its key for the statement's insert.)
    func swapCover(of albumID: UUID, withKept slot: UUID) throws {
        let (slot, album) = (slot.uuidString, albumID.uuidString)
        let row = try connection.query(
            """
            SELECT (SELECT image FROM album_cover WHERE album_id = $2),
                   (SELECT image FROM kept_cover WHERE slot = $1 AND album_id = $2)
            """, [slot, album]
        ).first
        let shown = try row?.decode(Int64.self, at: 0)
        let kept = try row?.decode(Int64.self, at: 1)
        var statements = [
            PostgreSQLStatement("DELETE FROM album_cover WHERE album_id = $1", [album]),
            PostgreSQLStatement("DELETE FROM kept_cover WHERE slot = $1 AND album_id = $2", [slot, album]),
        ]
        if let kept {
            statements.append(
                PostgreSQLStatement("INSERT INTO album_cover (album_id, image) VALUES ($1, $2)", [album, kept]))
        }
        if let shown {
            statements.append(
                PostgreSQLStatement(
                    "INSERT INTO kept_cover (slot, album_id, image) VALUES ($1, $2, $3)", [slot, album, shown]))
        }
        _ = try connection.pipeline(statements)
    }

    /// Moves every shown cover under `slot` (a replacement sets the library's albums aside).
    func setAsideCovers(_ slot: UUID) throws {
        try connection.execute(
            """
            WITH moved AS (DELETE FROM album_cover RETURNING album_id, image)
            INSERT INTO kept_cover (slot, album_id, image) SELECT $1, album_id, image FROM moved
            """, [slot.uuidString])
    }

    /// Moves the covers of the albums a bulk step staged under `batch` to the images it keeps
    /// (a bulk delete: its undo shows them again, ``restoreCovers(_:)``).
    func keepCoversOfStagedAlbums(_ batch: UUID) throws {
        try connection.execute(
            """
            WITH moved AS (
                DELETE FROM album_cover WHERE album_id IN (SELECT id FROM bulk_album WHERE batch = $1)
                RETURNING album_id, image
            )
            INSERT INTO kept_cover (slot, album_id, image) SELECT $1, album_id, image FROM moved
            """, [batch.uuidString])
    }

    /// Shows again every cover kept under `slot` (undoing a replacement).
    func restoreCovers(_ slot: UUID) throws {
        try connection.execute(
            """
            WITH moved AS (DELETE FROM kept_cover WHERE slot = $1 RETURNING album_id, image)
            INSERT INTO album_cover (album_id, image) SELECT album_id, image FROM moved
            """, [slot.uuidString])
    }

    /// Deletes the images kept under `slot`: the step that kept them left the history.
    func discardKeptCovers(_ slot: UUID) throws {
        try connection.execute(
            """
            WITH released AS (DELETE FROM kept_cover WHERE slot = $1 RETURNING image)
            DELETE FROM cover_image WHERE id IN (SELECT image FROM released)
            """, [slot.uuidString])
    }

    private static func summary(_ row: PostgreSQLRow) throws -> CoverSummary {
        CoverSummary(
            mediaType: try row.decode(String.self, at: 0) ?? "", hash: try row.decode(String.self, at: 1) ?? "",
            byteCount: try row.decode(Int.self, at: 2) ?? 0)
    }
}
#endif
