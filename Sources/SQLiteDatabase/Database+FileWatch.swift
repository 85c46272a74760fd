internal import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Database {
    /// What became of the file a connection opened, as its path shows it now.
    ///
    /// A long-running program (an editor, a server) asks ``fileStatus()`` before it acts on what it
    /// shows and whenever it looks for other processes' changes: anything but ``unchanged`` means
    /// the connection no longer shows what is at its path, and the program closes it (``close()``
    /// never touches the file now at the path) and opens the path again.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/howtocorrupt.html#_unlinking_or_renaming_a_database_file_while_in_use>
    public enum FileStatus: Sendable, Hashable {
        /// The path names the file opened, and nothing but SQLite connections changed it, as far as
        /// can be seen.
        case unchanged
        /// Another file is at the path now: moved there (a restore from a backup), or the file opened
        /// was renamed and another put in its place. Commits through this connection are refused.
        case replaced
        /// Nothing is at the path: the file was removed or renamed. Commits are refused.
        case removed
        /// The path names the file opened, but another program wrote into it while it was open (a copy
        /// over it: `cp backup.sqlite library.sqlite`): the pages this connection keeps in memory may
        /// not be what the file holds, and a write through it could damage the file.
        case overwritten
    }

    /// Compares the file at the path with the file this connection opened.
    ///
    /// The path is looked up (`stat`, links followed) and its device and inode compared with those
    /// recorded at open: ``FileStatus/replaced`` or ``FileStatus/removed`` when they differ. A file
    /// written over in place keeps its identity; it shows as ``FileStatus/overwritten`` when its size or
    /// modification time changed although no connection committed since they were last seen. A
    /// checkpoint also writes the file without a commit, so a connection that wants to see such a
    /// write checkpoints its own commits (``checkpoint()``) and sees another connection's checkpoint of
    /// frames committed since its last look as ``FileStatus/overwritten`` too: reopening is then
    /// harmless, only unnecessary.
    ///
    /// An in-memory database, or a closed connection, is always ``FileStatus/unchanged``.
    ///
    /// - Returns: What became of the file.
    /// - Throws: ``DatabaseError`` when the data version cannot be read.
    /// - Complexity: Two `stat` calls and one statement, a few microseconds.
    public func fileStatus() throws -> FileStatus {
        guard var opened = openedFile, !isClosed else { return .unchanged }
        var status = stat()
        guard stat(path, &status) == 0 else {
            // A folder on the way that cannot be searched says nothing about the file.
            return errno == ENOENT || errno == ENOTDIR ? .removed : .unchanged
        }
        guard FileIdentity(status) == opened.identity else { return .replaced }
        // A statement starts a read transaction, where other connections' commits are counted.
        _ = try fetchOne("PRAGMA data_version")
        let version = try connection.dataVersion()
        let stamp = FileSystem.stamp(of: path)
        if version != opened.dataVersion {
            opened.stamp = stamp
            opened.dataVersion = version
            openedFile = opened
            return .unchanged
        }
        return stamp?.hasSameContents(as: opened.stamp) == false ? .overwritten : .unchanged
    }

    /// Copies the committed pages of the write-ahead log into the database file now, without
    /// waiting for any reader or writer (a passive checkpoint), and notes the file as it leaves it.
    ///
    /// A file whose log is checkpointed holds every commit: what another program copies over it
    /// replaces all of it, and ``fileStatus()`` can tell the copy from this connection's own writes.
    /// Pages a reader still needs stay in the log until a later checkpoint.
    ///
    /// - Throws: ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_wal_checkpoint>
    public func checkpoint() throws {
        let before = try fileStatus()
        try execute("PRAGMA wal_checkpoint(PASSIVE)")
        // A write by another program seen before is left for the next fileStatus() to report.
        guard before == .unchanged, var opened = openedFile else { return }
        opened.stamp = FileSystem.stamp(of: path)
        opened.dataVersion = try connection.dataVersion()
        openedFile = opened
    }

    /// Records the file just opened and marks its log, or throws when the file changed during the
    /// open or the log belongs to another file. Called once, right after the set-up pragmas.
    func recordOpenedFile() throws {
        let handle = try connection.openHandle(sql: nil)
        let identity = FileIdentity(path: path)
        var moved: Int32 = 0
        // SQLite's own look: whether its descriptor is still the file at the path.
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        guard let identity, moved == 0 else {
            throw DatabaseError(
                resultCode: .cantOpen,
                message: "\(path) was moved, replaced or removed while it was being opened; nothing was changed",
                path: path)
        }
        // Checked before the open too; again now that SQLite has opened the log, in case it was
        // swapped in between.
        try WriteAheadLogOwner.requireLog(of: path)
        // SQLite names the companions after the path with its links resolved.
        let base = FileSystem.resolvedPath(path)
        if !configuration.isReadOnly {
            WriteAheadLogOwner.mark(base + "-wal", database: identity)
        }
        let index = FileIdentity(path: base + "-shm")
        openedFile = OpenedFile(
            identity: identity,
            companionBase: base,
            log: FileIdentity(path: base + "-wal"),
            index: index,
            stamp: FileSystem.stamp(of: path),
            dataVersion: try connection.dataVersion())
        connection.holdLockedFiles([identity] + (index.map { [$0] } ?? []))
        // One `stat` per commit, with the write lock held: 2.3 µs on the busy development VM, against
        // 47–58 µs for a one-row commit measured beside it. Skipping some would let commits made just
        // after a move go to the old file.
        connection.setFileCheck { [path] in FileIdentity(path: path) == identity }
    }

    /// Whether the connection is open on a file that is no longer at its path.
    var isDetachedFromPath: Bool {
        guard let openedFile, !isClosed else { return false }
        return FileIdentity(path: path) != openedFile.identity
    }

    /// Removes the `-wal` and `-shm` files at the path if they are still the very files this
    /// connection used, after closing it while its file is no longer at its path: left there, the
    /// next connection to the path would replay the old file's log into the new one. Files another
    /// connection put there since are left alone.
    func removeOwnCompanionsFromPath() {
        guard let openedFile else { return }
        let base = openedFile.companionBase
        for (suffix, identity) in [("-wal", openedFile.log), ("-shm", openedFile.index)] {
            if let identity, FileIdentity(path: base + suffix) == identity { unlink(base + suffix) }
        }
    }
}
