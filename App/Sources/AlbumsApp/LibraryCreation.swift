import AlbumLibrary
import Foundation
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `albums init [PATH] [--empty]`, and the rule it stands for: a library at a path the user named
/// (`--db`, `ALBUMS_DB`) is created by `init`, or by a change (with a notice), never by a reading
/// command, so a mistyped path makes nothing.
enum LibraryCreation {
    /// The refusal of a reading command on a named path that holds nothing, or `nil` when it may run.
    ///
    /// - Parameters:
    ///   - path: The library path the command would open.
    ///   - action: The command.
    ///   - named: Whether the user named the path (`--db` or `ALBUMS_DB`), not the default library.
    static func refusal(at path: String, for action: AlbumsAction, named: Bool) -> String? {
        guard named, !action.isMutating, access(path, F_OK) != 0, errno == ENOENT else { return nil }
        // A dangling link is no library either, but what is there is the user's: say so, create nothing.
        let shown = DisplayText.sanitized(path)
        return "no library at \(shown); `albums init \(shown)` creates one"
    }

    /// Creates the library at `location`: its tables, and the five default albums unless `empty`.
    ///
    /// Refused when anything is there already (a library, another file, or on a server a library
    /// already made), and when another process created the library meanwhile: whether this run
    /// created it is decided in the transaction that seeds it.
    ///
    /// - Returns: The line (or JSON object) to print.
    static func create(at location: LibraryLocation, empty: Bool, json: Bool) throws -> String {
        switch location {
        case .file(let path): return try create(at: path, empty: empty, json: json)
        #if PostgreSQL
        case .server(let url): return try create(onServer: url, empty: empty, json: json)
        #endif
        }
    }

    #if PostgreSQL
    /// `albums init postgresql://…`: the tables (migrated like a file's), then the albums, once.
    private static func create(onServer url: String, empty: Bool, json: Bool) throws -> String {
        let before = try LibrarySession.create(postgreSQL: url)
        let session = try LibrarySession.open(postgreSQL: url)
        let albums = empty ? [] : Album.defaults()
        guard try session.library.seedDefaultsIfNeeded(with: albums) else {
            throw LibraryError(
                .storage,
                "a library is already at \(session.path)\(before > 0 ? "" : " (another client created it)"): "
                    + "init creates one only where there is none")
        }
        return created(at: session.path, count: albums.count, empty: empty, json: json)
    }
    #endif

    private static func create(at path: String, empty: Bool, json: Bool) throws -> String {
        var status = stat()
        if lstat(path, &status) == 0 {
            if let session = try? LibrarySession.open(path: path) {
                session.close()
                throw LibraryError(
                    .storage, "a library is already at \(path): init creates one only where there is none")
            }
            throw LibraryError(.storage, "\(path) exists and is not an albums library: init creates nothing there")
        }
        let session = try LibrarySession.open(path: path)
        defer { session.close() }
        let albums = empty ? [] : Album.defaults()
        guard try session.library.seedDefaultsIfNeeded(with: albums) else {
            throw LibraryError(
                .storage,
                "a library is already at \(path) (another process created it): init creates one only where there is none"
            )
        }
        return created(at: path, count: albums.count, empty: empty, json: json)
    }

    /// What `init` prints: where (a path, or a server without the password), and how many albums.
    private static func created(at place: String, count: Int, empty: Bool, json: Bool) -> String {
        if json {
            struct Created: Encodable {
                var command = "init"
                var path: String
                var count: Int
            }
            return AlbumFormatter.json(Created(path: place, count: count))
        }
        let contents = empty ? "no albums" : "\(count) albums"
        return "Created a library at \(DisplayText.sanitized(place)) with \(contents)\n"
    }
}
