import CommandStore
import Foundation
public import SQLiteDatabase

extension LibrarySession {
    /// What became of the library file since the session opened it: another program may have moved
    /// a backup over it, copied one over it, or removed it.
    ///
    /// A long-running program (the terminal UI, a server) asks before each change it makes and
    /// whenever it looks for other processes' changes, and on anything but `unchanged` stops using
    /// this session: it reopens the file now at the path (``reopened()``), or stops.
    ///
    /// ```swift
    /// switch try session.fileStatus() {
    /// case .unchanged: break
    /// case .replaced, .overwritten: session = try session.reopened()
    /// case .removed: session.close()  // and stop: there is no library at the path any more
    /// }
    /// ```
    ///
    /// Commits through a session whose file is no longer at its path fail anyway (with
    /// `DatabaseError` code `readOnlyDatabaseMoved`, nothing written); asking first spares the
    /// attempt and tells why.
    ///
    /// - Returns: The file's status (see `Database.FileStatus`).
    /// - Throws: A `DatabaseError` when the connection cannot be read.
    /// - Complexity: Two `stat` calls and one statement.
    public func fileStatus() throws -> Database.FileStatus {
        // A library on a server has no file another program could move or replace.
        try file?.fileStatus() ?? .unchanged
    }

    /// Closes this session and opens the library that is at its path now.
    ///
    /// The close touches nothing at the path when the file there is not the one this session opened
    /// (`Database.close()`), so nothing of the old file reaches the new one. The new session
    /// records the same author (`DurableHistory.author`): reopening never changes who a change
    /// is recorded for, nor whose changes "undo mine" finds.
    ///
    /// - Returns: A session on the file at ``path`` now.
    /// - Throws: ``LibraryError`` as ``open(path:)`` does, or ``LibraryError/Code/storage`` when
    ///   nothing is at the path any more (no new library is created in its place).
    public func reopened() throws -> LibrarySession {
        close()
        guard FileSystem.exists(path) else {
            throw LibraryError(.storage, "\(path) is gone: it was removed or renamed while it was open")
        }
        let session = try LibrarySession.open(path: path)
        session.history.author = history.author
        return session
    }

    /// Closes this session and opens the library at its path once that file can be opened.
    ///
    /// A copy over the library is seen as soon as it starts (`cp` truncates the file, then writes
    /// it): for a moment the file is empty or half written. An open that fails is tried again
    /// until `settlingTime` has passed, and only then is its error thrown. Nothing is written
    /// meanwhile: a file that is not an albums library is only read.
    ///
    /// - Parameter settlingTime: How long a file that cannot be opened is given to become a
    ///   library again.
    /// - Returns: A session on the file at ``path`` now.
    /// - Throws: As ``reopened()``, once `settlingTime` has passed (at once when the file is gone
    ///   or is a newer library).
    public func reopened(settlingFor settlingTime: Duration) throws -> LibrarySession {
        let deadline = ContinuousClock.now + settlingTime
        while true {
            do {
                return try reopened()
            } catch let error as LibraryError where error.code != .newerLibrary && ContinuousClock.now < deadline {
                guard FileSystem.exists(path) else { throw error }
                usleep(50_000)
            }
        }
    }

    /// Closes the session's connection; the session cannot be used afterwards.
    public func close() {
        file?.close()
    }

    /// Copies the changes committed so far from the write-ahead log into the library file, so that
    /// a file copied over it replaces all of it and ``fileStatus()`` can tell such a copy from a
    /// commit (see `Database.checkpoint()`).
    ///
    /// A long-running program calls it after its own changes and after it followed other processes'
    /// changes; it never waits for another process.
    ///
    /// - Throws: A `DatabaseError`.
    public func checkpoint() throws {
        try file?.checkpoint()
    }
}
