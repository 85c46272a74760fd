import AlbumLibrary

/// Where the library a command opens is: a file (`--db PATH`, `ALBUMS_DB`, the default library),
/// or a database on a PostgreSQL server (`--db postgresql://USER@HOST:PORT/DB`, or `ALBUMS_DB` set
/// to such a URL), which an `albums` built with the `PostgreSQL` trait opens.
enum LibraryLocation: Equatable {
    /// A library file, its path resolved (``LibraryFile/defaultPath(explicitPath:environment:)``).
    case file(String)
    #if PostgreSQL
    /// A libpq connection URL, as given: libpq's own rules apply (`sslmode`, `PGPASSWORD`,
    /// `.pgpass`, service files); it may hold a password, so it is never printed.
    case server(String)
    #endif

    /// The URL schemes libpq reads as a connection URL.
    static let serverSchemes = ["postgresql://", "postgres://"]

    /// The library `--db` (when given), else `ALBUMS_DB`, else the default file names.
    ///
    /// - Throws: ``LibraryError`` for a folder that must exist and does not, and for a server URL
    ///   in an `albums` built without PostgreSQL.
    static func resolve(explicit: String?, environment: [String: String]) throws -> LibraryLocation {
        let named = [explicit, environment["ALBUMS_DB"]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        if let named, serverSchemes.contains(where: { named.lowercased().hasPrefix($0) }) {
            #if PostgreSQL
            return .server(named)
            #else
            throw LibraryError(
                .unsupported,
                "this albums was built without PostgreSQL: build it with `--traits PostgreSQL` to open a library on a server"
            )
            #endif
        }
        return .file(try LibraryFile.defaultPath(explicitPath: explicit, environment: environment))
    }

    /// Opens the library here for `author`.
    func open(author: String? = nil) throws -> LibrarySession {
        switch self {
        case .file(let path):
            let session = try LibrarySession.open(path: path)
            if let author { session.history.author = author }
            return session
        #if PostgreSQL
        case .server(let url):
            return try LibrarySession.open(postgreSQL: url, author: author)
        #endif
        }
    }
}
