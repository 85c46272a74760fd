#if PostgreSQL
public import PostgreSQLDatabase

// A library on a PostgreSQL server: the albums, their covers, imports and replacements, queries,
// sorted listings, bulk changes and their history. What still needs the library file (the repair
// of a damaged history) is refused there with one line (``LibraryError/Code/unsupported``).

extension LibraryAPI {
    /// Creates the facade over a library on a PostgreSQL server.
    ///
    /// - Parameter connection: A connection whose database holds the library's tables
    ///   (``LibrarySession/open(postgreSQL:author:)`` creates or migrates them).
    public convenience init(postgreSQL connection: PostgreSQLConnection) {
        self.init(store: .server(PostgreSQLAlbums(connection: connection)))
    }

    /// The albums on a server, or `nil` for a library file.
    var server: PostgreSQLAlbums? {
        guard case .server(let server) = store else { return nil }
        return server
    }

    /// The refusal of a feature that needs the library file.
    static func notOnServer(_ server: PostgreSQLAlbums) -> LibraryError {
        LibraryError(
            .unsupported,
            "\(server.connection.displayName) is a library on a PostgreSQL server, which keeps albums, their "
                + "covers and their history (every album command, undo, redo, history and its repair, stats, "
                + "export), not a library file's SQLite connection")
    }
}
#endif
