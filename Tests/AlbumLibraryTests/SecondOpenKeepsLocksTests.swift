import AlbumLibrary
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A second session opened in a process that already has the library open (the terminal UI and the
/// server reopen a library this way) keeps the first session's SQLite locks.
///
/// Regression test: the open's checks read the library's header and its `-shm` index with
/// descriptors of their own, and closing them released every POSIX lock this process held on
/// those files. Another process then took the index for abandoned and truncated it under the
/// first session's mapping: the terminal UI died with a bus error after a copy over its library.
@Suite struct SecondOpenKeepsLocksTests {
    /// `F_OFD_GETLK`: asks as an open file description, which this process's own locks conflict with.
    private static let openFileDescriptionGetLock: Int32 = 36
    /// Where SQLite's unix VFS takes the locks the test looks at (os_unix.c): the index's
    /// dead-man switch, which every connection holds shared, and the database's shared range,
    /// which a WAL connection holds while open.
    private static let indexDeadManSwitch = 128
    private static let databaseSharedRange = (start: 0x4000_0002, count: 510)

    @Test func aSecondOpenAndCloseLeavesTheFirstSessionsLocksInPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let first = try LibrarySession.open(path: path)
        try first.library.seedDefaultsIfNeeded()
        // Commits in the log, so the open scans the log and its index.
        try first.delete(.position(1))
        try first.delete(.position(1))

        // Descriptors for the probe, closed only once the first session is closed (their close
        // would release its locks as well).
        let index = open(path + "-shm", O_RDWR | O_CLOEXEC)
        let database = open(path, O_RDWR | O_CLOEXEC)
        try #require(index >= 0 && database >= 0)
        defer {
            close(index)
            close(database)
        }
        #expect(Self.isHeld(index, at: Self.indexDeadManSwitch, count: 1), "the probe sees no lock at all")
        #expect(Self.isHeld(database, at: Self.databaseSharedRange.start, count: Self.databaseSharedRange.count))

        let second = try LibrarySession.open(path: path)
        #expect(try second.library.count() == 3)
        second.close()

        #expect(Self.isHeld(index, at: Self.indexDeadManSwitch, count: 1), "the index's lock was released")
        #expect(
            Self.isHeld(database, at: Self.databaseSharedRange.start, count: Self.databaseSharedRange.count),
            "the database's shared lock was released")
        // And the first session still works on the file, its log intact.
        try first.undo()
        #expect(try first.library.count() == 4)
        first.close()
    }

    /// Whether some lock (this process's included) would stop a write lock on the range.
    private static func isHeld(_ descriptor: Int32, at offset: Int, count: Int) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(offset)
        lock.l_len = off_t(count)
        guard fcntl(descriptor, openFileDescriptionGetLock, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}
