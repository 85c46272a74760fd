#if PostgreSQL
import PostgreSQLDatabase

// `albums stats` on a server: the same figures as a library file's, read in one statement; the
// size is what the library's tables take on the server (their indexes and out-of-line values
// included), which is what a file's size on disk tells its owner.

extension PostgreSQLAlbums {
    /// The albums' figures (``LibraryStatistics`` without the history's length), and the bytes the
    /// library's tables and its history's (`historyPrefix`) take on the server.
    func statistics(historyPrefix: String) throws -> LibraryStatistics {
        var names = JSONRows()
        for table in Self.tables + ["_header", "_entry", "_branch"].map({ historyPrefix + $0 }) {
            names.string(table)
        }
        guard
            let row = try connection.query(
                """
                SELECT count(*), count(DISTINCT artist), count(DISTINCT nullif(genre, '')), min(year), max(year),
                       count(*) - count(year),
                       (SELECT coalesce(sum(pg_total_relation_size(to_regclass(quote_ident(name)))), 0)::bigint
                        FROM jsonb_array_elements_text($1::jsonb) AS name)
                FROM album
                """, [names.text]
            ).first
        else { throw LibraryError(.storage, "the library's statistics returned no row") }
        return LibraryStatistics(
            albums: try row.decode(Int.self, at: 0) ?? 0, artists: try row.decode(Int.self, at: 1) ?? 0,
            genres: try row.decode(Int.self, at: 2) ?? 0, firstYear: try row.decode(Int.self, at: 3),
            lastYear: try row.decode(Int.self, at: 4), albumsWithoutYear: try row.decode(Int.self, at: 5) ?? 0,
            historySteps: 0, bytesOnDisk: try row.decode(Int.self, at: 6) ?? 0)
    }
}
#endif
