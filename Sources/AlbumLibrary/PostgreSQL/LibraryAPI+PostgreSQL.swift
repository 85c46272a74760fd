#if PostgreSQL
public import PostgreSQLDatabase

// A library on a PostgreSQL server: the albums and their history, queries, sorted listings and
// bulk changes. What needs the library file (covers, imports, statistics, repairs) is refused
// there with one line (``LibraryError/Code/unsupported``), through ``LibraryAPI/database``.

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
            "\(server.connection.displayName) is a library on a PostgreSQL server, which keeps albums and their "
                + "history (list, query and sort, show, add, edit, delete and move one album or many, undo, redo, "
                + "history, export); covers, imports, statistics and repairs need a library file for now")
    }
}
#endif
