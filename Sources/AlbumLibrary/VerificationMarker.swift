import CommandKit
import Locking
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers, on the library file itself, that the file passed `PRAGMA integrity_check` and has
/// been written by `albums` alone since: a verified-at marker.
///
/// The marker is an extended attribute (`user.albums.verified`) holding the file's identity as
/// `albums` last left it: device, inode, size and modification time in nanoseconds. Any write by
/// another program (a bit flipped by a tool, a file restored over the library, a copy) changes
/// one of them, so the next open sees a mismatch and checks the whole file once. A file too large
/// to check at every open (``LibraryFile/fullCheckLimit``) is thus checked when it changed behind
/// albums' back, and never otherwise: a full check of 100,000 albums costs about 180 ms, reading
/// and writing the marker a few microseconds.
///
/// What it cannot see: damage that keeps the modification time (a writer that restores it, a disk
/// that flips bits by itself), or a write by another program while an `albums` process has the
/// file open (that process records the file as it leaves it). Where extended attributes are not
/// supported, nothing is recorded and a large file is checked in full at every open (safe, slow).
enum VerificationMarker {
    static let attribute = "user.albums.verified"

    /// The paths this process opened after a full check or a matching marker: their marker may be
    /// renewed when the process is done with them.
    private static let trusted = LockedState<Set<String>>([])

    /// Whether `path` carries a marker that matches the file as it is now.
    static func matches(_ path: String) -> Bool {
        guard let stamp = stamp(of: path) else { return false }
        return FileSystem.extendedAttribute(attribute, of: path) == stamp
    }

    /// Notes that `path` is sound as this process found it.
    static func trust(_ path: String) {
        trusted.withLock { _ = $0.insert(path) }
    }

    /// Records each trusted file's current identity as verified; a file with a `-wal` left (its
    /// connection is not closed yet, or another process has it open) is left for later.
    static func renewAll() {
        for path in trusted.withLock({ $0 }) {
            guard access(path + "-wal", F_OK) != 0, let stamp = stamp(of: path), !matches(path) else { continue }
            FileSystem.setExtendedAttribute(attribute, to: stamp, of: path)
        }
    }

    /// "device inode size seconds.nanoseconds" of the file at `path`.
    private static func stamp(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec)"
    }
}
