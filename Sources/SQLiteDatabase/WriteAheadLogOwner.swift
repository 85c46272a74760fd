#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which database a `-wal` file belongs to, written on the log itself, so that no connection ever
/// reads one file's log as another's.
///
/// SQLite finds a database's write-ahead log by name (`<path>-wal`) and its header names no
/// database: when a file is moved over the database while a connection has it open (`mv
/// backup.sqlite library.sqlite`, a restore), the log at `library.sqlite-wal` is still the old
/// file's. The next connection to open the path replays it into the restored file, and its close
/// checkpoints it there for good: the restore is silently reverted (see "How To Corrupt An SQLite
/// Database File", section 2.4).
///
/// So each connection marks the log it uses with an extended attribute (`user.commandkit.database`)
/// holding the identity of its database file and of the log itself, and every open first reads the
/// mark on the log it is about to use: a log marked for another file is refused before SQLite reads
/// it. A mark counts only on the log it was written on: a copy of the log (`cp -a`, a backup tool
/// that keeps attributes) has another inode, so a database copied together with its log opens as
/// SQLite would open it. Where extended attributes are not supported nothing is marked and nothing
/// can be refused (the check then costs one failed call).
package enum WriteAheadLogOwner {
    /// The extended attribute on the log.
    static let attribute = "user.commandkit.database"

    /// Marks the log at `logPath` as the log of `database`, unless it is marked so already.
    ///
    /// - Parameters:
    ///   - logPath: The `-wal` file.
    ///   - database: The identity of the database file whose log it is.
    static func mark(_ logPath: String, database: FileIdentity) {
        guard let log = FileIdentity(path: logPath) else { return }
        if let mark = mark(of: logPath), mark.database == database, mark.log == log { return }
        FileSystem.setExtendedAttribute(attribute, to: "\(database) \(log)", of: logPath)
    }

    /// The database the log at `logPath` was marked for, when the mark was written on this very file.
    ///
    /// - Returns: `nil` when there is no log, no mark, or the mark was copied from another log.
    static func owner(of logPath: String) -> FileIdentity? {
        guard let mark = mark(of: logPath), mark.log == FileIdentity(path: logPath) else { return nil }
        return mark.database
    }

    /// Throws when the log next to `path` is marked as another file's log: the file at `path` was
    /// replaced (or removed) while a connection had the old one open.
    ///
    /// Reads only: nothing is opened, so nothing can be replayed.
    ///
    /// - Parameter path: The database file, which may be absent.
    /// - Throws: ``DatabaseError`` with code `cantOpen`, naming both files and the remedy.
    package static func requireLog(of path: String) throws {
        // Beside the file a link points to, where SQLite looks for it.
        let base = FileSystem.resolvedPath(path)
        guard let owner = owner(of: base + "-wal") else { return }
        let database = FileIdentity(path: path)
        guard owner != database else { return }
        // Named as the user named the database, unless a link makes that another place.
        let shown = FileIdentity(path: path + "-wal") == FileIdentity(path: base + "-wal") ? path : base
        let what =
            database == nil
            ? "the file that was at \(path) (removed or renamed since)"
            : "the file that was at \(path) before another was moved over it (a restore?)"
        throw DatabaseError(
            resultCode: .cantOpen,
            message: "\(shown)-wal is the write-ahead log of \(what); nothing was read or changed: close the program "
                + "that has the old file open, or if none has, move \(shown)-wal and \(shown)-shm away",
            path: path)
    }

    /// The mark on `logPath`: the database's identity and the log's own when it was written.
    private static func mark(of logPath: String) -> (database: FileIdentity, log: FileIdentity)? {
        guard let text = FileSystem.extendedAttribute(attribute, of: logPath) else { return nil }
        let parts = text.split(separator: " ").map(identity(from:))
        guard parts.count == 2, let database = parts[0], let log = parts[1] else { return nil }
        return (database, log)
    }

    /// "device:inode" back into an identity.
    private static func identity(from text: Substring) -> FileIdentity? {
        let numbers = text.split(separator: ":").compactMap { UInt64($0) }
        return numbers.count == 2 ? FileIdentity(device: numbers[0], inode: numbers[1]) : nil
    }
}
