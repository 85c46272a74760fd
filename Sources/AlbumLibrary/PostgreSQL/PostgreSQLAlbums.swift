#if PostgreSQL
import Foundation
import PostgreSQLDatabase

/// The albums of a library on a PostgreSQL server: what ``LibraryAPI`` reads and writes there.
///
/// The same model as the SQLite library's: albums ordered by a `sort_key` with wide gaps, so a
/// change touches one row; positions are counted from the keys. Every statement runs on the
/// history's connection, so inside a change it is part of the change's transaction, which has
/// locked the history's header first: what it reads is what every earlier change committed.
struct PostgreSQLAlbums {
    let connection: PostgreSQLConnection

    /// The schema of a library's own tables (`commandkit_schema` identifier `albums`).
    static let schema = PostgreSQLSchema(
        identifier: "albums",
        migrations: [
            PostgreSQLMigration(
                version: 1, name: "albums",
                statements: [
                    """
                    CREATE TABLE album (
                        id text PRIMARY KEY,
                        sort_key bigint NOT NULL,
                        title text NOT NULL,
                        artist text NOT NULL,
                        genre text NOT NULL DEFAULT '',
                        year integer,
                        cover text,
                        search_text text NOT NULL
                    )
                    """,
                    "CREATE INDEX album_by_sort_key ON album (sort_key)",
                    "CREATE INDEX album_by_title ON album (title)",
                    // The folded title starts the search text: a prefix look-up (`^@`) uses it.
                    "CREATE INDEX album_by_search_text ON album (search_text text_pattern_ops)",
                    // The application's own state, outside the history (LibraryAPI+AppState).
                    "CREATE TABLE app_state (key text PRIMARY KEY, value text)",
                ]),
            PostgreSQLMigration(version: 2, name: "covers and imports", statements: coversAndImports),
            bulkStagingMigration,
        ])

    /// Version 2: what imports, replacements and cover images keep outside the albums, as a
    /// library file's versions 2 to 4 do (`LibraryFile+Search`, `LibraryFile+Covers`).
    ///
    /// `import_batch` holds an import's albums while its step is undone (and a replacement's new
    /// ones), `replaced_album` the albums a replacement set aside, each under its step's batch id
    /// in file order (`seq`). `cover_image` holds each stored image once (`bytea`), `album_cover`
    /// the image an album shows, `kept_cover` the images history steps keep for their undo or redo
    /// under the step's slot: every image has one owner, and a change moves the owner, not the bytes.
    static let coversAndImports = [
        """
        CREATE TABLE import_batch (
            batch text NOT NULL,
            seq integer NOT NULL,
            id text NOT NULL,
            title text NOT NULL,
            artist text NOT NULL,
            genre text NOT NULL DEFAULT '',
            year integer,
            cover text,
            search_text text NOT NULL,
            PRIMARY KEY (batch, seq)
        )
        """,
        """
        CREATE TABLE replaced_album (
            batch text NOT NULL,
            seq integer NOT NULL,
            id text NOT NULL,
            title text NOT NULL,
            artist text NOT NULL,
            genre text NOT NULL DEFAULT '',
            year integer,
            cover text,
            search_text text NOT NULL,
            PRIMARY KEY (batch, seq)
        )
        """,
        """
        CREATE TABLE cover_image (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            media_type text NOT NULL,
            sha256 text NOT NULL,
            byte_count integer NOT NULL,
            bytes bytea NOT NULL
        )
        """,
        "CREATE TABLE album_cover (album_id text PRIMARY KEY, image bigint NOT NULL)",
        """
        CREATE TABLE kept_cover (
            slot text NOT NULL,
            album_id text NOT NULL,
            image bigint NOT NULL,
            PRIMARY KEY (slot, album_id)
        )
        """,
        // Images are compressed already: stored out of line as they are, not compressed again.
        "ALTER TABLE cover_image ALTER COLUMN bytes SET STORAGE EXTERNAL",
    ]

    /// The library's own tables (the history's are under ``LibrarySession/postgreSQLHistoryPrefix``).
    static let tables = [
        "album", "app_state", "import_batch", "replaced_album", "cover_image", "album_cover", "kept_cover",
        "bulk_album",
    ]

    static let columns = "id, title, artist, genre, year, cover, sort_key"

    /// An album and its key, as a row of `SELECT \(columns)` holds them.
    struct Located {
        var album: Album
        var sortKey: Int64
    }

    // MARK: - Reading

    // The reads a change makes, as statements: a change sends the ones it knows it will make with
    // the history's lock (`readAhead`), and a read made twice in a row inside a change is kept
    // (`PostgreSQLConnection.read`), so the change waits for the server once for both.

    static let countRead = PostgreSQLStatement("SELECT count(*) FROM album", prepared: true)

    static func albumRead(at position: Int) -> PostgreSQLStatement {
        PostgreSQLStatement(
            "SELECT \(Self.columns) FROM album ORDER BY sort_key LIMIT 1 OFFSET $1", [position - 1], prepared: true)
    }

    static func albumRead(withID id: UUID) -> PostgreSQLStatement {
        PostgreSQLStatement("SELECT \(Self.columns) FROM album WHERE id = $1", [id.uuidString], prepared: true)
    }

    /// The keys of the albums at `position - 1` and `position`.
    static func neighbourKeysRead(ofInsertingAt position: Int) -> PostgreSQLStatement {
        PostgreSQLStatement(
            "SELECT sort_key FROM album ORDER BY sort_key LIMIT 2 OFFSET $1", [max(0, position - 2)], prepared: true)
    }

    /// Runs a read, or answers from its kept rows (`PostgreSQLConnection.read`).
    private func read(_ statement: PostgreSQLStatement) throws -> [PostgreSQLRow] {
        try connection.read([statement])[0]
    }

    /// Sends `reads` with the next transaction's opening (`PostgreSQLConnection.readAhead`).
    func readAhead(_ reads: [PostgreSQLStatement]) {
        connection.readAhead(reads)
    }

    /// Sends the writes deferred so far now (`PostgreSQLConnection.sendDeferredWrites`).
    func sendDeferredWrites() throws {
        try connection.sendDeferredWrites()
    }

    func count() throws -> Int {
        try read(Self.countRead).first?.decode(Int.self, at: 0) ?? 0
    }

    func albums() throws -> [Album] {
        try connection.query("SELECT \(Self.columns) FROM album ORDER BY sort_key").map { try Self.located($0).album }
    }

    func albums(at positions: Range<Int>) throws -> [Album] {
        try connection.query(
            "SELECT \(Self.columns) FROM album ORDER BY sort_key LIMIT $1 OFFSET $2",
            [positions.count, positions.lowerBound - 1]
        ).map { try Self.located($0).album }
    }

    /// The album at a position, or `nil` when there is none.
    func located(at position: Int) throws -> Located? {
        guard position >= 1 else { return nil }
        return try read(Self.albumRead(at: position)).first.map(Self.located)
    }

    func position(of id: UUID) throws -> Int? {
        try connection.query(
            "SELECT (SELECT count(*) FROM album b WHERE b.sort_key < a.sort_key) + 1 FROM album a WHERE a.id = $1",
            [id.uuidString]
        ).first?.decode(Int.self, at: 0)
    }

    func album(withID id: UUID) throws -> Album? {
        try read(Self.albumRead(withID: id)).first.map { try Self.located($0).album }
    }

    /// The albums titled exactly `title`, with their keys.
    func albums(titled title: String) throws -> [Located] {
        try connection.query("SELECT \(Self.columns) FROM album WHERE title = $1", [title]).map(Self.located)
    }

    /// The albums whose search text starts with `prefix` (a folded title and its line feed).
    func albums(searchTextStartingWith prefix: String) throws -> [Located] {
        try connection.query("SELECT \(Self.columns) FROM album WHERE search_text ^@ $1", [prefix]).map(Self.located)
    }

    /// The albums whose search text contains `folded` (a case- and accent-folded text), with their
    /// positions, in library order: one statement, the positions counted in it.
    func albums(searchTextContaining folded: String) throws -> [(position: Int, album: Album)] {
        try connection.query(
            """
            SELECT id, title, artist, genre, year, cover, sort_key, position FROM (
                SELECT \(Self.columns), search_text, row_number() OVER (ORDER BY sort_key) AS position FROM album
            ) numbered WHERE strpos(search_text, $1) > 0 ORDER BY sort_key
            """, [folded]
        ).map { row in
            guard let position = try row.decode(Int.self, at: 7) else {
                throw LibraryError(.storage, "the library's search returned a row without a position")
            }
            return (position, try Self.located(row).album)
        }
    }

    /// Each album's folded title (the search text's first line), key and id.
    func foldedTitles() throws -> [(title: String, sortKey: Int64, id: UUID)] {
        try connection.query("SELECT split_part(search_text, chr(10), 1), sort_key, id FROM album").map { row in
            (try row.decode(String.self, at: 0) ?? "", try Self.sortKey(row, at: 1), try Self.id(row, at: 2))
        }
    }

    /// The number of albums whose key is below `sortKey`.
    func count(before sortKey: Int64) throws -> Int {
        try connection.query("SELECT count(*) FROM album WHERE sort_key < $1", [sortKey]).first?
            .decode(Int.self, at: 0) ?? 0
    }

    /// The keys of the albums at `position - 1` and `position` (the first or both may be missing).
    func neighbourKeys(ofInsertingAt position: Int) throws -> [Int64] {
        try read(Self.neighbourKeysRead(ofInsertingAt: position)).map { try Self.sortKey($0, at: 0) }
    }

    /// Up to `limit` albums after the key `sortKey` (from the first when `nil`), in library order:
    /// a page of a read in bounded memory.
    func albums(after sortKey: Int64?, limit: Int) throws -> [Located] {
        try connection.query(
            "SELECT \(Self.columns) FROM album WHERE $1::bigint IS NULL OR sort_key > $1 ORDER BY sort_key LIMIT $2",
            [sortKey, limit]
        ).map(Self.located)
    }

    /// Runs `body` in one snapshot of the library (a read-only transaction).
    func inOneSnapshot(_ body: () throws -> Void) throws {
        try connection.inTransaction(.repeatableRead, readOnly: true) { try body() }
    }

    // MARK: - The application's state

    func state(_ key: String) throws -> String? {
        try connection.query("SELECT value FROM app_state WHERE key = $1", [key]).first?.decode(String.self, at: 0)
    }

    func setState(_ key: String, to value: String?) throws {
        try connection.execute(
            "INSERT INTO app_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, value])
    }

    /// Adds `albums` at the end, `gap` apart, unless the library was seeded once: the mark and the
    /// albums in one transaction, so of two clients seeding at once one does.
    func seedIfNeeded(with albums: [Album], gap: Int64) throws -> Bool {
        if try state("seeded") != nil { return false }
        return try connection.inTransaction(.readCommitted) {
            let marked = try connection.execute(
                "INSERT INTO app_state (key, value) VALUES ('seeded', '1') ON CONFLICT (key) DO NOTHING")
            guard marked == 1 else { return false }
            var key = try connection.query("SELECT max(sort_key) FROM album").first?.decode(Int64.self, at: 0) ?? 0
            for album in albums {
                key += gap
                try insert(album, sortKey: key)
            }
            return true
        }
    }

    // MARK: - Writing

    // A change's writes are sent with its next read or its commit (`PostgreSQLConnection.sendLater`):
    // no decision waits for them, and one that changes no row fails on the server, so the commit
    // sent with it does not happen.

    func insert(_ album: Album, sortKey: Int64) throws {
        try connection.sendLater(
            PostgreSQLStatement(
                """
                INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                [
                    album.id.uuidString, sortKey, album.title, album.artist, album.genre, album.year,
                    album.coverURL?.absoluteString, SearchText.of(album),
                ], prepared: true))
    }

    /// Removes the album with `id`; `mismatch` is the failure's message when there is none.
    func remove(withID id: UUID, otherwise mismatch: String) throws {
        try connection.sendLater(
            PostgreSQLStatement("DELETE FROM album WHERE id = $1", [id.uuidString], prepared: true),
            expectingOneRowOtherwise: mismatch)
    }

    /// Gives the album with id `id` the values (and id) of `album`; `mismatch` is the failure's
    /// message when there is none.
    func update(id: UUID, to album: Album, otherwise mismatch: String) throws {
        try connection.sendLater(
            PostgreSQLStatement(
                """
                UPDATE album SET id = $1, title = $2, artist = $3, genre = $4, year = $5, cover = $6, search_text = $7
                WHERE id = $8
                """,
                [
                    album.id.uuidString, album.title, album.artist, album.genre, album.year,
                    album.coverURL?.absoluteString, SearchText.of(album), id.uuidString,
                ], prepared: true),
            expectingOneRowOtherwise: mismatch)
    }

    /// Gives the album with `id` the key `sortKey` (a move); `mismatch` is the failure's message
    /// when there is none.
    func setSortKey(_ sortKey: Int64, ofAlbumWithID id: UUID, otherwise mismatch: String) throws {
        try connection.sendLater(
            PostgreSQLStatement(
                "UPDATE album SET sort_key = $1 WHERE id = $2", [sortKey, id.uuidString], prepared: true),
            expectingOneRowOtherwise: mismatch)
    }

    /// Gives every album a fresh key, `gap` apart, keeping the order: one statement.
    func spreadKeys(gap: Int64) throws {
        try connection.execute(
            """
            UPDATE album SET sort_key = ranked.key
            FROM (SELECT id, row_number() OVER (ORDER BY sort_key) * $1::bigint AS key FROM album) ranked
            WHERE album.id = ranked.id
            """,
            [gap])
    }

    // MARK: - Rows

    /// Reads the columns' texts directly (no generic `decode` per cell) and the id with
    /// ``UUIDText`` (Foundation's `UUID(uuidString:)` parses with `sscanf` on Linux): a whole
    /// library's listing reads every album twice (bench-pg-list.sh, BENCHMARKS.md).
    static func located(_ row: PostgreSQLRow) throws -> Located {
        let columns = row.columns
        guard columns.count >= 7 else {
            throw LibraryError(.storage, "the library's album rows hold \(columns.count) columns, expected 7")
        }
        return Located(
            album: Album(
                id: try id(columns[0]),
                title: columns[1] ?? "",
                artist: columns[2] ?? "",
                genre: columns[3] ?? "",
                year: try columns[4].map { text in
                    guard let year = Int(text) else {
                        throw LibraryError(.storage, "the library holds an album with a malformed year \(text)")
                    }
                    return year
                },
                coverURL: columns[5].flatMap { URL(string: $0) }),
            sortKey: try sortKey(columns[6]))
    }

    static func id(_ row: PostgreSQLRow, at index: Int) throws -> UUID {
        try id(try row.decode(String.self, at: index))
    }

    private static func id(_ text: String?) throws -> UUID {
        let text = text ?? ""
        guard let id = UUIDText.parse(text) ?? UUID(uuidString: text) else {
            throw LibraryError(.storage, "the library holds an album with a malformed id \(text)")
        }
        return id
    }

    private static func sortKey(_ row: PostgreSQLRow, at index: Int) throws -> Int64 {
        try sortKey(try row.decode(String.self, at: index))
    }

    private static func sortKey(_ text: String?) throws -> Int64 {
        guard let text else {
            throw LibraryError(.storage, "the library holds an album without a sort key")
        }
        guard let key = Int64(text) else {
            throw LibraryError(.storage, "the library holds an album with a malformed sort key \(text)")
        }
        return key
    }
}
#endif
