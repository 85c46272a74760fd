#if PostgreSQL
public import PostgreSQLDatabase

// A library on a PostgreSQL server: the albums, their covers, imports and replacements, and their
// history. What still needs the library file (bulk changes, the search index, sorted listings) is
// refused there with one line (``LibraryError/Code/unsupported``), through ``LibraryAPI/database``.

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
                + "covers and their history (list in library order, show, add, edit, delete, move, import, covers, "
                + "undo, redo, history, stats, export); searches, sorted listings and bulk changes need a library "
                + "file for now")
    }
}
#endif
