#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX file helpers: private modes at creation, sizes, existence.
///
/// Public only for the words of a message about a file (``reason(errno:)``, ``kind(ofMode:)``), so
/// that every program on the kit says the same thing about the same file; the rest is the kit's own.
public enum FileSystem: Sendable {
    /// Creates the missing folders of `path` (mode 0700) and the file itself (mode 0600), empty.
    ///
    /// An existing file is left alone, whatever its mode.
    package static func createFileIfMissing(at path: String) throws {
        try createParentDirectories(of: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw systemError("cannot create \(path)", path: path)
        }
    }

    /// Creates each missing folder on the way to `path`'s parent with mode 0700.
    package static func createParentDirectories(of path: String) throws {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = ""
        for (offset, component) in components.enumerated() {
            current += offset == 0 ? component : "/" + component
            if current.isEmpty || component.isEmpty || component == "." || component == ".." { continue }
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw systemError("cannot create the folder \(current)", path: path)
            }
        }
    }

    /// A name in the same folder as `path` for building a file before linking it into place.
    package static func temporarySibling(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + ".\(name).creating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// `path` with every symbolic link resolved, as SQLite resolves a database's path before it
    /// names the `-wal`, `-shm` and `-journal` files beside it: those sit next to the file a link
    /// points to, not next to the link. A path that does not exist yet has its folder resolved.
    ///
    /// - Returns: An absolute path, or `path` as given when its folder cannot be resolved either.
    package static func resolvedPath(_ path: String) -> String {
        if let resolved = realPath(path) { return resolved }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolvedFolder = realPath(folder) else { return path }
        return resolvedFolder == "/" ? "/" + name : resolvedFolder + "/" + name
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether something exists at `path` (a dangling link counts as absent).
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The size in bytes of the file at `path`, or `nil` when it cannot be read.
    package static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// What changes when a file is written: its size and change times. Two equal stamps taken
    /// around a read mean (within the clock's granularity) that nobody wrote the file meanwhile.
    package struct Stamp: Equatable {
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int
        let changed: Int64
        let changedNanoseconds: Int
    }

    /// The stamp of the file at `path`, or `nil` when it cannot be read.
    package static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Stamp(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtimespec.tv_sec),
            modifiedNanoseconds: Int(info.st_mtimespec.tv_nsec),
            changed: Int64(info.st_ctimespec.tv_sec),
            changedNanoseconds: Int(info.st_ctimespec.tv_nsec)
        )
        #else
        return Stamp(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec),
            changedNanoseconds: Int(info.st_ctim.tv_nsec)
        )
        #endif
    }

    package static func systemError(_ message: String, path: String) -> DatabaseError {
        let code = errno
        return DatabaseError(resultCode: .cantOpen, message: "\(message): \(reason(errno: code))", path: path)
    }

    /// The system's reason for `code`, with the remedy where one is known (a descriptor limit).
    public static func reason(errno code: Int32) -> String {
        switch code {
        case EMFILE, ENFILE:
            return "too many open files (raise the limit with 'ulimit -n', or close other programs)"
        case EROFS:
            return "the file system is read-only"
        default:
            return String(cString: strerror(code))
        }
    }

    /// What a file's mode says it is, for a message: "a directory", "a FIFO (named pipe)"; `nil`
    /// for a regular file.
    public static func kind(ofMode mode: UInt32) -> String? {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): nil
        case UInt32(S_IFDIR): "a directory"
        case UInt32(S_IFIFO): "a FIFO (named pipe)"
        case UInt32(S_IFCHR): "a character device"
        case UInt32(S_IFBLK): "a block device"
        case UInt32(S_IFSOCK): "a socket"
        case UInt32(S_IFLNK): "a symbolic link"
        default: "not a regular file"
        }
    }

    /// Throws when an existing database at `path` cannot be opened for writing: the file is read-only,
    /// or its folder is and the `-wal`/`-shm` files SQLite needs beside it do not exist yet.
    ///
    /// Without this check SQLite falls back to a read-only connection and fails later with "attempt
    /// to write a readonly database", naming no file. `access` asks with the real user's rights, as
    /// the open would (root passes unless the file system itself is read-only).
    package static func requireWritable(_ path: String) throws {
        if access(path, W_OK) != 0 {
            let code = errno
            guard code == EACCES || code == EPERM || code == EROFS else { return }
            let remedy =
                code == EROFS
                ? "it is on a read-only file system; copy it somewhere writable"
                : "make it writable (chmod u+w \(path))"
            throw DatabaseError(
                resultCode: .readOnly, message: "\(path) is read-only: \(remedy); nothing was changed", path: path)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let missing = ["-wal", "-shm"].filter { !exists(path + $0) }
        guard !missing.isEmpty, access(folder, W_OK) != 0 else { return }
        let code = errno
        guard code == EACCES || code == EPERM || code == EROFS else { return }
        throw DatabaseError(
            resultCode: .readOnly,
            message: "the folder \(folder) is read-only, and \(path) needs its \(path)-wal and \(path)-shm files "
                + "created beside it: make the folder writable (chmod u+w \(folder)); nothing was changed",
            path: path
        )
    }

    /// Gives `path`'s existing `-wal` and `-shm` the database's own permission bits.
    ///
    /// SQLite creates them with the database's mode, and they keep it: a log made while the library
    /// was 0444 stays 0444 after the library is made writable again, and every later write then
    /// fails. Only files owned by the caller (or by anyone, for root) are changed; others are left.
    package static func matchCompanionModes(of path: String) {
        var database = stat()
        guard stat(path, &database) == 0 else { return }
        let mode = database.st_mode & 0o777
        for suffix in ["-wal", "-shm"] {
            var companion = stat()
            guard lstat(path + suffix, &companion) == 0, companion.st_mode & S_IFMT == S_IFREG,
                companion.st_mode & 0o777 != mode, getuid() == 0 || companion.st_uid == getuid()
            else { continue }
            _ = chmod(path + suffix, mode)
        }
    }
}
