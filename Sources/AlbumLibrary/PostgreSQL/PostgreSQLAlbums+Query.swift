#if PostgreSQL
import PostgreSQLDatabase

// Queries on a server (`albums list QUERY…`, a bulk change's selection): the compiled condition
// (PostgreSQLQueryCondition) runs in one statement that also counts every album's position, so
// the matches and their positions are one snapshot, whatever other clients commit meanwhile.

extension PostgreSQLAlbums {
    /// The albums `condition` proposes, in library order, each with its position: those it
    /// matches exactly, or a superset to check with ``QueryMatcher`` when it is not exact.
    ///
    /// - Complexity: One statement that reads every album's key (the positions) and the albums
    ///   that meet the condition.
    func albums(meeting condition: PostgreSQLQueryCondition) throws -> [(position: Int, album: Album)] {
        try connection.query(
            """
            SELECT id, title, artist, genre, year, cover, sort_key, position FROM (
                SELECT \(Self.columns), search_text, row_number() OVER (ORDER BY sort_key) AS position FROM album
            ) a WHERE \(condition.sql) ORDER BY sort_key
            """, condition.arguments
        ).map { row in
            guard let position = try row.decode(Int.self, at: 7) else {
                throw LibraryError(.storage, "the library's query returned a row without a position")
            }
            return (position, try Self.located(row).album)
        }
    }
}
#endif
