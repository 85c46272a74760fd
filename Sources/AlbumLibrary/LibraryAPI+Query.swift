import SQLiteDatabase

extension LibraryAPI {
    /// The albums that match `query`, in an order, each with its position in the library.
    ///
    /// ```swift
    /// let query = try AlbumQuery(parsing: "artist:bowie year:..1979")
    /// for (position, album) in try library.albums(matching: query, order: .year) {
    ///     print(position, album.title)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - query: What the albums must match.
    ///   - order: How to order the result; ties keep library order.
    /// - Returns: The matching albums with their 1-based positions.
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: as ``forEachAlbum(matching:sort:batchSize:_:)``.
    public func albums(matching query: AlbumQuery, order: AlbumOrder) throws -> [(position: Int, album: Album)] {
        var rows: [(position: Int, album: Album)] = []
        try forEachAlbum(matching: query, sort: AlbumSort(order)) { rows += $0 }
        return rows
    }

    /// Calls `body` with the columns (``columns``, then `rowid`) of each album that matches `query`
    /// (every album for `nil`), in no particular order.
    ///
    /// The compiled condition (``QueryCondition``) runs in SQL with its values bound, through the
    /// trigram index when it offers a full-text expression; when it only narrows the query down,
    /// each album it proposes is checked by a ``QueryMatcher`` before `body` sees it.
    func forEachMatch(of query: AlbumQuery?, _ body: (borrowing ColumnReader) throws -> Void) throws {
        guard let query else {
            return try database.prepare("SELECT \(Self.columns), rowid FROM album").readEachRow([], body)
        }
        let condition = QueryCondition(query)
        let statement: Statement
        var arguments: [any DatabaseValueConvertible] = []
        if let fullText = condition.fullText {
            // The index proposes, the condition decides (the phrases also hold inside the index's
            // trigrams when the text does not, so the condition must be checked on the column too).
            statement = try database.prepare(
                """
                SELECT \(Self.columns), rowid FROM album a
                WHERE a.rowid IN (SELECT rowid FROM album_search WHERE album_search MATCH ?) AND (\(condition.sql))
                """)
            arguments.append(fullText)
        } else {
            statement = try database.prepare("SELECT \(Self.columns), rowid FROM album a WHERE \(condition.sql)")
        }
        arguments += condition.arguments.map { $0 as any DatabaseValueConvertible }
        if condition.isExact {
            return try statement.readEachRow(arguments, body)
        }
        let matcher = QueryMatcher(query)
        try statement.readEachRow(arguments) { columns in
            if matcher.matches(try Self.album(from: columns)) { try body(columns) }
        }
    }
}
