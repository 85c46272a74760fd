public import Foundation
public import SQLiteDatabase

/// The album library's facade: the receiver every album command works on.
///
/// `LibraryAPI` reads and writes the albums of one library file through SQLiteDatabase's
/// `Database`, or, with the `PostgreSQL` trait, of a library on a PostgreSQL server
/// (``LibrarySession/open(postgreSQL:author:)``), through the same connection the durable history
/// uses, so an album change and its history record commit in one transaction. Positions are
/// 1-based, as `albums list` prints them.
///
/// Order is kept in a `sort_key` column with wide gaps between neighbours: adding, deleting or
/// moving one album touches one row, never the whole library. Only when the gap between two
/// neighbours is used up are the keys spread out again (rare, O(*n*)).
///
/// ```swift
/// let library = LibraryAPI(database: db)
/// let bowie = try library.album(at: 1)
/// try library.removeAlbum(at: 1)
/// try library.insert(bowie, at: 1)
/// ```
///
/// - Important: Change albums through the album commands pushed on the durable history, so the
///   change can be undone; calling the mutating methods directly bypasses the history.
public final class LibraryAPI {
    /// Where the albums are.
    enum Store {
        /// A library file.
        case file(Database)
        #if PostgreSQL
        /// A library on a PostgreSQL server.
        case server(PostgreSQLAlbums)
        #endif
    }

    let store: Store

    /// The library file's connection, which the file's own features (the full-text index) read and
    /// write through.
    ///
    /// - Throws: ``LibraryError/Code/unsupported`` for a library on a PostgreSQL server, which
    ///   keeps albums, their covers, imports, queries, bulk changes and their history, not yet the
    ///   features that need the file.
    public var database: Database {
        get throws(LibraryError) {
            switch store {
            case .file(let database): return database
            #if PostgreSQL
            case .server(let server): throw Self.notOnServer(server)
            #endif
            }
        }
    }

    /// The distance between neighbouring sort keys when they are spread out.
    static let keyGap: Int64 = 1 << 20

    /// Creates the facade over an open, migrated library database.
    ///
    /// - Parameter database: A connection whose schema includes ``LibraryFile/albumsSchema``.
    public init(database: Database) {
        store = .file(database)
    }

    init(store: Store) {
        self.store = store
    }

    // MARK: - Reading

    /// The number of albums.
    ///
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: O(*n*) inside SQLite (an index count), fast even for large libraries.
    public func count() throws -> Int {
        #if PostgreSQL
        if let server { return try server.count() }
        #endif
        return try database.fetchOne("SELECT count(*) FROM album")?.decode(Int.self, at: 0) ?? 0
    }

    /// Every album, in library order.
    ///
    /// - Returns: The albums; the first is at position 1.
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: O(*n*).
    public func albums() throws -> [Album] {
        #if PostgreSQL
        if let server { return try server.albums() }
        #endif
        var albums: [Album] = []
        let statement = try database.cachedStatement("SELECT \(Self.columns) FROM album ORDER BY sort_key")
        try statement.readEachRow { columns in albums.append(try Self.album(from: columns)) }
        return albums
    }

    /// The albums at a range of positions, in library order: a window onto a large library.
    ///
    /// Positions past the end are left out, so the result may be shorter than the range, or
    /// empty. A screen that shows a few albums of a large library reads only those (plus a
    /// margin) instead of ``albums()``.
    ///
    /// ```swift
    /// let firstTen = try library.albums(at: 1..<11)
    /// let rest = try library.albums(at: 11..<(try library.count() + 1))
    /// ```
    ///
    /// - Parameter positions: 1-based positions; the lower bound must be at least 1.
    /// - Returns: The albums found at those positions; the first is at `positions.lowerBound`.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` when `positions.lowerBound` is below 1,
    ///   or `DatabaseError` if the library cannot be read.
    /// - Complexity: O(*positions.lowerBound* + *positions.count*): SQLite steps through the
    ///   `sort_key` index to the first position (index entries only) and reads only the albums returned.
    public func albums(at positions: Range<Int>) throws -> [Album] {
        guard positions.lowerBound >= 1 else {
            throw try outOfRange(positions.lowerBound, limit: count())
        }
        var albums: [Album] = []
        guard !positions.isEmpty else { return albums }
        #if PostgreSQL
        if let server { return try server.albums(at: positions) }
        #endif
        albums.reserveCapacity(min(positions.count, 4096))
        let statement = try database.cachedStatement(
            "SELECT \(Self.columns) FROM album ORDER BY sort_key LIMIT ? OFFSET ?"
        )
        try statement.readEachRow([positions.count, positions.lowerBound - 1]) { columns in
            albums.append(try Self.album(from: columns))
        }
        return albums
    }

    /// The album at a position.
    ///
    /// - Parameter position: A position from 1 to ``count()``.
    /// - Returns: The album.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` when there is no album there.
    /// - Complexity: O(*position*).
    public func album(at position: Int) throws -> Album {
        try located(at: position).album
    }

    /// The position of the album with an id, or `nil` when it is not in the library.
    ///
    /// - Parameter id: The album's id.
    /// - Returns: Its 1-based position.
    /// - Complexity: O(*position*).
    public func position(of id: UUID) throws -> Int? {
        #if PostgreSQL
        if let server { return try server.position(of: id) }
        #endif
        guard let key = try database.fetchOne("SELECT sort_key FROM album WHERE id = ?", [id.uuidString]) else {
            return nil
        }
        let before = try database.fetchOne(
            "SELECT count(*) FROM album WHERE sort_key < ?", [try key.decode(Int64.self, at: 0)])
        return (try before?.decode(Int.self, at: 0) ?? 0) + 1
    }

    /// Whether an album with this id is in the library.
    ///
    /// - Parameter id: The id.
    /// - Returns: `true` if it is.
    public func contains(_ id: UUID) throws -> Bool {
        #if PostgreSQL
        if let server { return try server.album(withID: id) != nil }
        #endif
        return try database.fetchOne("SELECT 1 FROM album WHERE id = ?", [id.uuidString]) != nil
    }

    // MARK: - Changing

    /// Inserts an album so that it ends up at `position`; later albums move one place on.
    ///
    /// - Parameters:
    ///   - album: The album; its id must not be in the library yet.
    ///   - position: From 1 to ``count()`` + 1 (the end).
    /// - Throws: ``LibraryError/Code/positionOutOfRange``, ``LibraryError/Code/invalidValue`` when the
    ///   id is taken, or `DatabaseError`.
    /// - Complexity: O(*position*), plus O(*n*) on the rare occasions keys are spread out.
    public func insert(_ album: Album, at position: Int) throws {
        #if PostgreSQL
        try readTogether(inserting: album, at: position)
        #endif
        let key = try sortKey(forInsertingAt: position)
        try insert(album, sortKey: key)
    }

    /// Appends albums at the end, in order, as one batch.
    ///
    /// - Parameters:
    ///   - albums: The albums; none of their ids may be in the library.
    ///   - progress: Called now and then, and at the end, with the number appended so far.
    /// - Throws: ``LibraryError/Code/invalidValue`` naming the first album whose id is taken
    ///   (1-based, in `albums`), or `DatabaseError`. Call it inside a transaction to make it all or nothing.
    /// - Complexity: O(*m* log *n*) for *m* albums.
    public func append(contentsOf albums: [Album], progress: ((Int) -> Void)? = nil) throws {
        var key = (try database.fetchOne("SELECT max(sort_key) FROM album")?.decode(Int64?.self, at: 0) ?? 0)
        for (offset, album) in albums.enumerated() {
            key += Self.keyGap
            do {
                try insert(album, sortKey: key)
            } catch let error as LibraryError {
                throw LibraryError(error.code, "album \(offset + 1): \(error.message)")
            }
            if offset % 1024 == 1023 { progress?(offset + 1) }
        }
        progress?(albums.count)
    }

    /// Removes the album at a position; later albums move one place back.
    ///
    /// - Parameter position: From 1 to ``count()``.
    /// - Returns: The removed album.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` or `DatabaseError`.
    /// - Complexity: O(*position*).
    @discardableResult
    public func removeAlbum(at position: Int) throws -> Album {
        let found = try located(at: position)
        #if PostgreSQL
        if let server {
            try server.remove(withID: found.album.id, otherwise: Self.mismatch("delete album \(position)"))
            return found.album
        }
        #endif
        try database.execute("DELETE FROM album WHERE rowid = ?", [found.rowID])
        return found.album
    }

    /// Removes the album with `id` (an undone add removes its own album), wherever it is now.
    ///
    /// - Throws: ``LibraryError/Code/storage`` when no album has that id (`operation` names what
    ///   was refused), or `DatabaseError`.
    /// - Complexity: O(log *n*): found through the id's index, not by walking positions.
    func removeAlbum(withID id: UUID, for operation: String) throws {
        #if PostgreSQL
        if let server { return try server.remove(withID: id, otherwise: Self.mismatch(operation)) }
        #endif
        try database.execute("DELETE FROM album WHERE id = ?", [id.uuidString])
        try Self.expect(database.changedRowCount == 1, operation)
    }

    /// Removes the albums at positions `first` through `first + count - 1`.
    ///
    /// - Parameters:
    ///   - first: The first position to remove.
    ///   - count: How many albums to remove.
    /// - Returns: The removed albums, in order.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` when the range runs past the end.
    public func removeAlbums(from first: Int, count: Int) throws -> [Album] {
        guard count > 0 else { return [] }
        let start = try located(at: first)
        _ = try located(at: first + count - 1)
        var removed: [Album] = []
        var rowIDs: [Int64] = []
        let statement = try database.cachedStatement(
            "SELECT \(Self.columns), rowid FROM album WHERE sort_key >= ? ORDER BY sort_key LIMIT ?"
        )
        try statement.readEachRow([start.sortKey, count]) { columns in
            removed.append(try Self.album(from: columns))
            rowIDs.append(try columns.integer(at: 7))
        }
        for rowID in rowIDs {
            try database.execute("DELETE FROM album WHERE rowid = ?", [rowID])
        }
        return removed
    }

    /// Replaces the album at a position with another value of the same album.
    ///
    /// - Parameters:
    ///   - position: From 1 to ``count()``.
    ///   - album: The new value; its id replaces the old one's.
    /// - Returns: The album that was there.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` or `DatabaseError`.
    @discardableResult
    public func replaceAlbum(at position: Int, with album: Album) throws -> Album {
        let found = try located(at: position)
        #if PostgreSQL
        if let server {
            try server.update(id: found.album.id, to: album, otherwise: Self.mismatch("edit album \(position)"))
            return found.album
        }
        #endif
        try database.execute(
            """
            UPDATE album SET id = ?, title = ?, artist = ?, genre = ?, year = ?, cover = ?, search_text = ?
            WHERE rowid = ?
            """,
            [
                album.id.uuidString, album.title, album.artist, album.genre, album.year, album.coverURL?.absoluteString,
                SearchText.of(album), found.rowID,
            ]
        )
        return found.album
    }

    /// Gives the album with `album`'s id `album`'s values (a selective undo or redo of an edit,
    /// which finds its album by id wherever other changes have moved it).
    ///
    /// - Throws: ``LibraryError/Code/storage`` when no album has that id (`operation` names what
    ///   was refused), or `DatabaseError`.
    func replaceAlbum(withIDOf album: Album, for operation: String) throws {
        #if PostgreSQL
        if let server { return try server.update(id: album.id, to: album, otherwise: Self.mismatch(operation)) }
        #endif
        try database.execute(
            """
            UPDATE album SET title = ?, artist = ?, genre = ?, year = ?, cover = ?, search_text = ?
            WHERE id = ?
            """,
            [
                album.title, album.artist, album.genre, album.year, album.coverURL?.absoluteString,
                SearchText.of(album), album.id.uuidString,
            ]
        )
        try Self.expect(database.changedRowCount == 1, operation)
    }

    /// The album with an id, or `nil`.
    func album(withID id: UUID) throws -> Album? {
        #if PostgreSQL
        if let server { return try server.album(withID: id) }
        #endif
        var found: Album?
        let statement = try database.cachedStatement("SELECT \(Self.columns) FROM album WHERE id = ?")
        try statement.readEachRow([id.uuidString]) { columns in found = try Self.album(from: columns) }
        return found
    }

    /// Moves the album at `from` so that it ends up at `to`.
    ///
    /// - Parameters:
    ///   - from: The album's position now, from 1 to ``count()``.
    ///   - to: Its position afterwards, from 1 to ``count()``.
    /// - Returns: The moved album.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` or `DatabaseError`.
    @discardableResult
    public func moveAlbum(from: Int, to: Int) throws -> Album {
        #if PostgreSQL
        try readTogether(moving: from, to: to)
        #endif
        let found = try located(at: from)
        _ = try located(at: to)
        guard from != to else { return found.album }
        #if PostgreSQL
        if let server {
            // One UPDATE of its key, between its neighbours-to-be: the albums now at `to` and
            // `to + 1` when it moves down, at `to - 1` and `to` when it moves up.
            let key = try sortKey(forInsertingAt: from < to ? to + 1 : to)
            try server.setSortKey(key, ofAlbumWithID: found.album.id, otherwise: Self.mismatch("move album \(from)"))
            return found.album
        }
        #endif
        try database.execute("DELETE FROM album WHERE rowid = ?", [found.rowID])
        let key = try sortKey(forInsertingAt: to)
        try insert(found.album, sortKey: key)
        return found.album
    }

    // MARK: - Internals

    static let columns = "id, title, artist, genre, year, cover, sort_key"

    struct Located {
        var album: Album
        var sortKey: Int64
        /// The row's SQLite rowid (0 on a PostgreSQL server, whose rows are found by id).
        var rowID: Int64
    }

    func located(at position: Int) throws -> Located {
        var found: Located?
        #if PostgreSQL
        if let server {
            found = try server.located(at: position).map { Located(album: $0.album, sortKey: $0.sortKey, rowID: 0) }
            guard let found else { throw try outOfRange(position, limit: count()) }
            return found
        }
        #endif
        if position >= 1 {
            let statement = try database.cachedStatement(
                "SELECT \(Self.columns), rowid FROM album ORDER BY sort_key LIMIT 1 OFFSET ?"
            )
            try statement.readEachRow([position - 1]) { columns in
                found = Located(
                    album: try Self.album(from: columns), sortKey: try columns.integer(at: 6),
                    rowID: try columns.integer(at: 7))
            }
        }
        guard let found else { throw try outOfRange(position, limit: count()) }
        return found
    }

    func outOfRange(_ position: Int, limit: Int) -> LibraryError {
        if limit == 0 {
            return LibraryError(.positionOutOfRange, "position \(position) is out of range: the library is empty")
        }
        return LibraryError(.positionOutOfRange, "position \(position) is out of range (1...\(limit))")
    }

    /// A key between the albums now at `position - 1` and `position`.
    func sortKey(forInsertingAt position: Int) throws -> Int64 {
        guard position >= 1 else { throw try outOfRange(position, limit: count() + 1) }
        let rows = try neighbourKeys(ofInsertingAt: position)
        let before: Int64?
        let after: Int64?
        if position == 1 {
            before = nil
            after = rows.first
        } else {
            guard let first = rows.first else { throw try outOfRange(position, limit: count() + 1) }
            before = first
            after = rows.count > 1 ? rows[1] : nil
        }
        switch (before, after) {
        case (nil, nil): return 0
        case (let before?, nil): return before + Self.keyGap
        case (nil, let after?): return after - Self.keyGap
        case (let before?, let after?):
            if after - before > 1 { return before + (after - before) / 2 }
            try spreadKeys()
            return try sortKey(forInsertingAt: position)
        }
    }

    /// The keys of the albums at `position - 1` and `position` (the first or both may be missing).
    private func neighbourKeys(ofInsertingAt position: Int) throws -> [Int64] {
        #if PostgreSQL
        if let server { return try server.neighbourKeys(ofInsertingAt: position) }
        #endif
        return try database.fetchAll(
            "SELECT sort_key FROM album ORDER BY sort_key LIMIT 2 OFFSET ?",
            [max(0, position - 2)]
        ).map { row in try row.decode(Int64.self, at: 0) }
    }

    /// Gives every album a fresh key, `keyGap` apart, keeping the order.
    func spreadKeys() throws {
        #if PostgreSQL
        if let server { return try server.spreadKeys(gap: Self.keyGap) }
        #endif
        let keys = try database.fetchAll("SELECT rowid FROM album ORDER BY sort_key").map { row in
            try row.decode(Int64.self, at: 0)
        }
        for (offset, rowID) in keys.enumerated() {
            try database.execute(
                "UPDATE album SET sort_key = ? WHERE rowid = ?", [Int64(offset + 1) * Self.keyGap, rowID])
        }
    }

    func insert(_ album: Album, sortKey: Int64) throws {
        if try contains(album.id) {
            throw LibraryError(.invalidValue, "id \(album.id.uuidString) is already in the library")
        }
        #if PostgreSQL
        if let server { return try server.insert(album, sortKey: sortKey) }
        #endif
        try database.execute(
            """
            INSERT INTO album (id, sort_key, title, artist, genre, year, cover, search_text)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                album.id.uuidString, sortKey, album.title, album.artist, album.genre, album.year,
                album.coverURL?.absoluteString, SearchText.of(album),
            ]
        )
    }

    /// The album in a row of `SELECT \(columns)`, read in place.
    static func album(from columns: borrowing ColumnReader) throws -> Album {
        // Parsed in place: the stored form is UUID.uuidString's; anything else takes the slow path.
        guard let id = try columns.withUTF8(at: 0, UUIDText.parse) ?? UUID(uuidString: try columns.text(at: 0)) else {
            throw LibraryError(.storage, "the library holds an album with a malformed id \(try columns.text(at: 0))")
        }
        return Album(
            id: id,
            title: try columns.text(at: 1),
            artist: try columns.text(at: 2),
            genre: try columns.text(at: 3),
            year: columns.isNull(at: 4) ? nil : Int(try columns.integer(at: 4)),
            coverURL: columns.isNull(at: 5) ? nil : URL(string: try columns.text(at: 5))
        )
    }
}

@available(*, unavailable, message: "A LibraryAPI uses one Database connection, which belongs to one isolation domain.")
extension LibraryAPI: Sendable {}

extension LibraryAPI {
    /// Fails when the library no longer matches what a stored command expects, instead of
    /// changing the wrong album.
    static func expect(_ condition: Bool, _ operation: String) throws {
        guard condition else { throw LibraryError(.storage, mismatch(operation)) }
    }

    /// The message of ``expect(_:_:)``'s failure (a server library's write reports it itself).
    static func mismatch(_ operation: String) -> String {
        "cannot \(operation): the library no longer matches its history"
    }
}
