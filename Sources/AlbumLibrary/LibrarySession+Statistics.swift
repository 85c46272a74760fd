import CommandKit
import CommandStore
import SQLiteDatabase

extension LibrarySession {
    /// The library's figures, read in one snapshot: what `albums stats` prints.
    ///
    /// - Returns: The counts, the year span, the history's length and the size on disk (for a
    ///   library on a PostgreSQL server, what its tables take on the server).
    /// - Throws: `DatabaseError` if the library cannot be read.
    /// - Complexity: O(*n*): one pass over the albums (the distinct counts sort them).
    public func statistics() throws -> LibraryStatistics {
        #if PostgreSQL
        if let server = library.server {
            // The albums' figures in one statement (one snapshot); the history's length is read
            // by the history itself, which opens its own transaction.
            var statistics = try server.statistics(historyPrefix: Self.postgreSQLHistoryPrefix)
            statistics.historySteps = history.count
            return statistics
        }
        #endif
        var statistics = LibraryStatistics(
            albums: 0, artists: 0, genres: 0, firstYear: nil, lastYear: nil, albumsWithoutYear: 0, historySteps: 0,
            bytesOnDisk: 0)
        try library.inOneSnapshot {
            try library.database.prepare(
                """
                SELECT count(*), count(DISTINCT artist), count(DISTINCT nullif(genre, '')), min(year), max(year),
                       count(*) - count(year)
                FROM album
                """
            ).readEachRow { columns in
                statistics.albums = Int(try columns.integer(at: 0))
                statistics.artists = Int(try columns.integer(at: 1))
                statistics.genres = Int(try columns.integer(at: 2))
                statistics.firstYear = columns.isNull(at: 3) ? nil : Int(try columns.integer(at: 3))
                statistics.lastYear = columns.isNull(at: 4) ? nil : Int(try columns.integer(at: 4))
                statistics.albumsWithoutYear = Int(try columns.integer(at: 5))
            }
            statistics.historySteps = history.count
        }
        statistics.bytesOnDisk = (FileSystem.size(of: path) ?? 0) + (FileSystem.size(of: path + "-wal") ?? 0)
        return statistics
    }
}
