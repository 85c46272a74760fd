#if PostgreSQL
import CommandStore
public import PostgreSQLCommandStore
import PostgreSQLDatabase

/// A library on a PostgreSQL server, shared by clients on any number of machines: its albums and
/// its history (`PostgreSQLHistory`, which keeps branches and authors) commit in one transaction.
extension LibrarySession {
    /// The prefix of the history's tables, and its NOTIFY channel.
    public static let postgreSQLHistoryPrefix = "albums_history"

    /// Creates the library's tables in the database a connection string names, or brings them up
    /// to this program's version; a library already there is kept as it is.
    ///
    /// - Parameter connectionString: A libpq connection string (a `postgresql://` URL or
    ///   `key=value` pairs; `PGPASSWORD`, `.pgpass` and service files apply).
    /// - Returns: The schema version the database held before (0: it was created).
    /// - Throws: A `PostgreSQLError` (``LibraryError/Code/newerLibrary`` for tables written by a
    ///   newer program): nothing is changed then.
    @discardableResult
    public static func create(postgreSQL connectionString: String) throws -> Int {
        let connection = try PostgreSQLConnection(connectingTo: connectionString)
        do {
            let migrated = try connection.migrate(PostgreSQLAlbums.schema)
            try connection.migrate(try PostgreSQLHistory<LibraryAPI>.schema(tablePrefix: postgreSQLHistoryPrefix))
            return migrated.from
        } catch let error as PostgreSQLError where error.code == .newerSchema {
            throw LibraryError(.newerLibrary, error.message)
        }
    }

    /// Opens the library in the database a connection string names (``create(postgreSQL:)``
    /// made it), bringing its tables up to this program's version first when an older one made them.
    ///
    /// - Parameters:
    ///   - connectionString: A libpq connection string.
    ///   - author: Who the session's changes are recorded for.
    /// - Returns: The session.
    /// - Throws: ``LibraryError/Code/notALibrary`` when the database holds no library,
    ///   ``LibraryError/Code/newerLibrary`` for one written by a newer program, or a
    ///   `PostgreSQLError` (refused, unreachable).
    public static func open(postgreSQL connectionString: String, author: String? = nil) throws -> LibrarySession {
        let connection = try PostgreSQLConnection(connectingTo: connectionString)
        let version = try connection.schemaVersion(of: PostgreSQLAlbums.schema.identifier)
        guard version > 0 else {
            throw LibraryError(
                .notALibrary,
                "\(connection.displayName) holds no albums library: `albums init` with this URL creates one"
            )
        }
        guard version <= PostgreSQLAlbums.schema.version else {
            throw LibraryError(
                .newerLibrary,
                "\(connection.displayName) holds an albums library of version \(version), newer than this program's "
                    + "\(PostgreSQLAlbums.schema.version): use a newer albums")
        }
        if version < PostgreSQLAlbums.schema.version {
            // An older library (a client of a newer release opening it first): brought up to date,
            // as create does; clients migrating at once take turns, the second finds the work done.
            do {
                try connection.migrate(PostgreSQLAlbums.schema)
            } catch let error as PostgreSQLError where error.code == .newerSchema {
                throw LibraryError(.newerLibrary, error.message)
            }
        }
        let library = LibraryAPI(postgreSQL: connection)
        let history: PostgreSQLHistory<LibraryAPI>
        do {
            // A library an older program made gets this program's tables first (`create` does the
            // same; the history's initializer migrates its own). Once: a current one is only read.
            if version < PostgreSQLAlbums.schema.version { try connection.migrate(PostgreSQLAlbums.schema) }
            history = try PostgreSQLHistory(
                connection: connection, receiver: library, registry: LibraryAPI.commandRegistry,
                tablePrefix: postgreSQLHistoryPrefix, keepsBranches: true)
        } catch let error as PostgreSQLError where error.code == .newerSchema {
            throw LibraryError(.newerLibrary, error.message)
        }
        history.author = author
        return LibrarySession(library: library, history: history, path: connection.displayName)
    }
}

extension PostgreSQLHistory: LibraryHistory where Receiver == LibraryAPI {
    /// Reads the notifications that arrived (no round trip when none did): another client's
    /// commit, or a reconnect, costs one query. The first call starts listening.
    public func followOtherClients() throws -> Bool {
        try waitForChanges(upTo: .zero)
    }
}
#endif
