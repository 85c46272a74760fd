import CommandStore
import Foundation
public import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds, checks, creates and opens album library files.
///
/// A library is an SQLite file holding the album tables (created by ``schema``) next to the
/// durable history's tables. Opening refuses, without writing a byte, any file that is not
/// an albums library: a text file, a truncated file, another program's SQLite database.
public enum LibraryFile: Sendable {
    /// The SQL that creates a library's own tables: albums ordered by `sort_key`, and small
    /// application state (the current album, whether the defaults were added).
    public static let schema = """
        CREATE TABLE IF NOT EXISTS album (
            id TEXT NOT NULL UNIQUE,
            sort_key INTEGER NOT NULL,
            title TEXT NOT NULL,
            artist TEXT NOT NULL,
            genre TEXT NOT NULL DEFAULT '',
            year INTEGER,
            cover TEXT
        );
        CREATE INDEX IF NOT EXISTS album_by_sort_key ON album (sort_key);
        CREATE TABLE IF NOT EXISTS app_state (key TEXT PRIMARY KEY NOT NULL, value TEXT);
        """

    /// Albums staged for an import, or moved out of the library by undoing one (see
    /// ``ImportAlbumsCommand``), in file order.
    public static let importBatchSchema = """
        CREATE TABLE IF NOT EXISTS import_batch (
            batch TEXT NOT NULL,
            seq INTEGER NOT NULL,
            id TEXT NOT NULL,
            title TEXT NOT NULL,
            artist TEXT NOT NULL,
            genre TEXT NOT NULL DEFAULT '',
            year INTEGER,
            cover TEXT,
            PRIMARY KEY (batch, seq)
        ) WITHOUT ROWID;
        """

    /// The library path the command line uses: `--db`, else `$ALBUMS_DB`, else
    /// `$XDG_DATA_HOME/albums/library.sqlite`, else `~/.local/share/albums/library.sqlite`.
    ///
    /// Empty variables count as unset, and a relative `XDG_DATA_HOME` is ignored, as the XDG Base
    /// Directory specification says. A new library's folders are created below a folder that must
    /// exist already, never above it: for `--db` and `$ALBUMS_DB` the file's own folder may be
    /// created, not its parent; for `$XDG_DATA_HOME` that folder and `albums/` in it, not its
    /// parent; otherwise `.local/share/albums` in the home folder, which must exist (`$HOME`, or
    /// the account's home folder when `HOME` is unset).
    ///
    /// - Parameters:
    ///   - explicitPath: The `--db` value, which wins when given.
    ///   - environment: The process environment.
    /// - Returns: An absolute or relative file path.
    /// - Throws: ``LibraryError`` with ``LibraryError/Code/storage`` when the folder that must
    ///   exist does not (`HOME=/nonexistent`, a `--db` two folders deep in nothing).
    public static func defaultPath(explicitPath: String? = nil, environment: [String: String]) throws -> String {
        if let explicitPath, !explicitPath.isEmpty {
            try requireFolder(
                grandparent(of: explicitPath), "the folder of --db \(explicitPath)", remedy: "create it first")
            return explicitPath
        }
        if let path = environment["ALBUMS_DB"], !path.isEmpty {
            try requireFolder(grandparent(of: path), "the folder of ALBUMS_DB=\(path)", remedy: "create it first")
            return path
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            try requireFolder(parent(of: data), "the folder of XDG_DATA_HOME=\(data)")
            return data + "/albums/library.sqlite"
        }
        let home: String
        if let variable = environment["HOME"], !variable.isEmpty {
            home = variable
            try requireFolder(home, "HOME=\(home)")
        } else {
            home = NSHomeDirectory()
            try requireFolder(home, "the account's home folder \(home) (HOME is not set)")
        }
        return home + "/.local/share/albums/library.sqlite"
    }

    /// Throws unless `folder` is an existing directory; `what` names it in the message.
    private static func requireFolder(
        _ folder: String, _ what: String, remedy: String = "create it, or name the library with --db"
    ) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw LibraryError(
                .storage,
                "\(what): \(folder) is not an existing folder, and albums creates no folder above it (\(remedy))")
        }
    }

    /// The folder `path` is in, as `dirname` says it ("." for a bare name, "/" at the root).
    /// (Not `NSString.deletingLastPathComponent`: Foundation on Linux traps on ".".)
    static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        var folder = path[..<slash]
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    private static func grandparent(of path: String) -> String {
        parent(of: parent(of: path))
    }

    /// The library's own tables, versioned: each migration runs once, in the transaction that
    /// opens the file, after CommandStore's own tables.
    public static let albumsSchema = Schema(
        identifier: "albums",
        migrations: [
            Migration(version: 1, name: "albums and app state", sql: schema),
            Migration(version: 2, name: "import batches", sql: importBatchSchema),
            searchMigration,
            coversMigration,
            bulkStagingMigration,
        ]
    )

    /// The largest library file checked in full (`PRAGMA integrity_check`) at every open: 4 MiB,
    /// about 12,000 albums, checked in about 40 ms. The check costs O(size) (180–330 ms for 100,000
    /// albums), which would make every command's cost grow with the library: a larger file is
    /// checked in full only when it changed since albums last left it (``recordVerifiedLibraries()``).
    static let fullCheckLimit = 4 << 20

    /// Opens the library at `path`, creating it (folder 0700, file 0600) when absent.
    ///
    /// - Parameter path: The library file.
    /// - Returns: An open connection whose schema includes the album tables and the history's.
    /// - Throws: ``LibraryError/Code/notALibrary`` when the file exists but is not an albums
    ///   library (nothing is written to it), ``LibraryError/Code/damagedLibrary`` when it is one
    ///   but damaged or inconsistent (nothing is written to it either: a migration that does not
    ///   fit its tables is rolled back), ``LibraryError/Code/newerLibrary`` when a newer
    ///   albums wrote it, or ``LibraryError/Code/storage`` when it cannot be created or opened.
    public static func open(path: String) throws -> Database {
        try checkIsLibraryOrAbsent(path)
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        // NORMAL in WAL mode: a commit survives a killed process; a power cut may lose the
        // last commits but never leaves the library inconsistent.
        configuration.synchronous = .normal
        do {
            let database = try Database.openStore(path: path, schemas: [albumsSchema], configuration: configuration)
            // Damage in pages a command does not read would go unseen: a write would build on it, a
            // list read past it through a damaged index. Small libraries are checked page by page at
            // each open; larger ones when they changed since albums last left them (VerificationMarker).
            // stat(2), not FileManager's attributes: those look up the owner and group names too.
            var status = stat()
            let size = stat(path, &status) == 0 ? Int(status.st_size) : 0
            if size <= fullCheckLimit || !VerificationMarker.matches(path) {
                do {
                    try database.checkIntegrity()
                } catch {
                    database.close()
                    throw error
                }
            }
            VerificationMarker.trust(path)
            return database
        } catch let error as StoreError {
            switch error.code {
            case .notARegularFile:
                throw LibraryError(.notALibrary, error.message)
            case .corruptDatabase:
                // "… is damaged: …", "… is a damaged SQLite database …": the file is named already.
                throw LibraryError(damage: error) ?? LibraryError(.notALibrary, error.message)
            case .notADatabase, .foreignDatabase:
                throw LibraryError(.notALibrary, "\(path) is not an albums library (\(error.message))")
            case .newerSchema:
                throw LibraryError(.newerLibrary, "\(path) was written by a newer version of albums (\(error.message))")
            default:
                throw LibraryError(.storage, "cannot open the library \(path): \(error.message)")
            }
        } catch let error as DatabaseError {
            // These messages name the file and the remedy already.
            if error.resultCode.primaryResultCode == .readOnly {
                throw LibraryError(.storage, error.message)
            }
            if let damage = LibraryError(damage: error) { throw damage }
            throw LibraryError(.storage, "cannot open the library \(path): \(error.message)")
        }
    }

    /// Records on each library this process opened, once its connections are closed, that the file
    /// is sound as the process leaves it.
    ///
    /// ``open(path:)`` checks a large library in full only when the file changed since this record
    /// was made: any write by another program changes its modification time. The record is an
    /// extended attribute holding the file's inode, size and modification time, written only for a
    /// file that passed the check (or carried a matching record) at open and has no `-wal` left
    /// (another connection still open would checkpoint into it later).
    ///
    /// Call it once the command succeeded and every connection is released; after a failure, do not,
    /// and the next open checks in full.
    public static func recordVerifiedLibraries() {
        VerificationMarker.renewAll()
    }

    /// Whether the library at `path` carries a verification record that matches the file as it is
    /// now, so that the next ``open(path:)`` skips the full check (see ``recordVerifiedLibraries()``).
    /// Always `false` where extended attributes are not supported.
    public static func hasVerificationRecord(at path: String) -> Bool {
        VerificationMarker.matches(path)
    }

    /// Throws unless `path` is absent or an SQLite file (whose identity the store then checks).
    /// Reads only: a foreign file is never modified.
    ///
    /// A `stat` first, so a device is never opened; then an `O_NONBLOCK` open checked with `fstat`
    /// on its descriptor, so a FIFO swapped in meanwhile cannot block the read of the header.
    static func checkIsLibraryOrAbsent(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT { return }  // Absent (or a dangling link): the store creates it.
            throw LibraryError(.storage, "cannot open the library \(path): \(FileSystem.reason(errno: code))")
        }
        try requireRegular(status, path)
        // A database this process has open is not read here: closing a descriptor of it would
        // drop SQLite's locks on it. SQLite checks what it is as it opens it again.
        guard !ProcessLockedFiles.holds(path) else { return }
        let descriptor = openWithoutBlocking(path)
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == EACCES ? "permission denied (it is not readable)" : FileSystem.reason(errno: code)
            throw LibraryError(.storage, "cannot read the library \(path): \(reason)")
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else {
            throw LibraryError(.storage, "cannot read the library \(path): \(FileSystem.reason(errno: errno))")
        }
        try requireRegular(status, path)
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        guard count == 16, header == Array("SQLite format 3\0".utf8) else {
            throw LibraryError(.notALibrary, "\(path) is not an albums library (not an SQLite database)")
        }
        // SQLite files: the store checks its application id and schema table without writing.
    }

    private static func requireRegular(_ status: stat, _ path: String) throws {
        if let kind = FileSystem.kind(ofMode: UInt32(status.st_mode)) {
            throw LibraryError(
                .notALibrary, "\(path) is \(kind), not an albums library; nothing was opened or changed")
        }
    }
}

/// `open(2)` for reading, never waiting (a FIFO) and never taking a terminal; named apart from
/// ``LibraryFile/open(path:)``.
private func openWithoutBlocking(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
}
