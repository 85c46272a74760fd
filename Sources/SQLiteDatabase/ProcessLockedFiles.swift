import Locking

/// The files this process has open through SQLite connections, which a raw `open` and `close` of
/// the same file would unlock.
///
/// SQLite's locks on a database and its `-shm` index are POSIX record locks, and `close(2)` of any
/// descriptor of a file releases every such lock the process holds on it. SQLite keeps its own
/// descriptors open for that reason; a look of ours at the file's bytes with a descriptor of our
/// own (the log scan, a header check) must do the same or not look. Without its locks a connection
/// is invisible to other processes: the next one to open the file takes the index for abandoned
/// and truncates it under this process's mapping (a bus error here), and the last one to close
/// deletes the log this process still writes to (its later commits lost).
///
/// A file is held from the open that records it until its connection is really closed: a
/// connection closed while statements are still held stays open until the last is finalized.
package enum ProcessLockedFiles {
    private static let counts = LockedState<[FileIdentity: Int]>([:])

    /// Whether a connection in this process holds SQLite's locks on the file `path` names now.
    ///
    /// - Parameter path: A database file or one of its companions.
    /// - Returns: `true` when a raw look at the file must not close a descriptor of it.
    package static func holds(_ path: String) -> Bool {
        guard let identity = FileIdentity(path: path) else { return false }
        return counts.withLock { $0[identity] != nil }
    }

    /// Notes that a connection uses these files (its database, and the index once it exists).
    static func hold(_ identities: [FileIdentity]) {
        counts.withLock { counts in
            for identity in identities { counts[identity, default: 0] += 1 }
        }
    }

    /// Notes that a connection that used these files is closed.
    static func release(_ identities: [FileIdentity]) {
        counts.withLock { counts in
            for identity in identities {
                guard let count = counts[identity] else { continue }
                counts[identity] = count > 1 ? count - 1 : nil
            }
        }
    }
}
