#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the commits in a database's `-wal` log that SQLite's recovery will drop because the log
/// is damaged before them, read before any connection opens the file.
///
/// When the first connection opens a log that the last one left behind (it was killed, or its
/// machine stopped), SQLite rebuilds the log's index by reading it frame by frame: each frame's
/// salts must match the log header's and its checksum must continue the chain from the header.
/// Everything from the first frame that fails is ignored, without a word, so a flipped bit in one
/// frame silently loses every commit logged after it (even one a checkpoint had copied into the
/// file: the frames before the damage then show older versions of its pages), and the next
/// checkpoint removes them for good.
///
/// This reads the log the same way, then counts the commit frames after the break that still carry
/// the header's salts: commits of the log's current generation that recovery cannot reach (frames
/// of an older generation, left in a log that was restarted, carry other salts and are not
/// counted). When the `-shm` index the crashed process left can be read (both copies of its header
/// agree, with the log's salts), only the frames it had committed count. Nothing is counted while
/// another process has the database open (it holds the index's "DMS" lock: no recovery runs, and
/// its log is live).
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#the_write_ahead_log>,
/// <https://www.sqlite.org/walformat.html>
package enum WriteAheadLogScan {
    /// The commits in the log of the database at `path` (`path-wal`, with `path-shm`) that are
    /// logged after damage: lost when a connection opens the file.
    ///
    /// - Parameter path: The database file.
    /// - Returns: 0 when there is no log, it is sound, a connection (in this process or another)
    ///   has the file open, or the log cannot be read.
    /// - Complexity: O(size of the log) when a log is left and no process has the file open;
    ///   O(1) otherwise (a clean close removes the log).
    package static func lostCommits(databaseAt path: String) -> Int {
        // Reading the file or its index here would unlock them for this process's connection.
        guard !ProcessLockedFiles.holds(path), !ProcessLockedFiles.holds(path + "-shm") else { return 0 }
        guard let log = RawFile(path: path + "-wal"), log.size > headerSize + frameHeaderSize,
            let header = log.bytes(at: 0, count: headerSize)
        else { return 0 }
        let indexFile = RawFile(path: path + "-shm")
        if let indexFile, indexFile.isLockedByAnotherProcess(at: deadManSwitchOffset) { return 0 }
        guard let commits = commitsAfterBreak(in: log, header: header, databasePath: path),
            // Read again: a log restarted meanwhile (another process opened the file) tells nothing.
            log.bytes(at: 0, count: headerSize) == header
        else { return 0 }
        if let index = indexFile.flatMap(IndexHeader.init), index.salts == header[16..<24] {
            return commits.filter { $0 <= index.committedFrames }.count
        }
        return commits.count
    }

    /// The byte of the `-shm` file every connection holds a shared lock on while it has the
    /// database open (`UNIX_SHM_DMS` in SQLite's os_unix.c: after the 8 locks at byte 120).
    static let deadManSwitchOffset = 128
    static let headerSize = 32
    static let frameHeaderSize = 24

    /// The 1-based numbers of the commit frames after the first frame recovery rejects whose salts
    /// are the header's; `nil` when the log cannot be read.
    private static func commitsAfterBreak(in log: RawFile, header: [UInt8], databasePath: String) -> [Int]? {
        let magic = bigEndian(header, 0)
        let headerPageSize = Int(bigEndian(header, 8))
        guard let pageSize = isPageSize(headerPageSize) ? headerPageSize : databasePageSize(databasePath) else {
            return nil
        }
        let frameSize = frameHeaderSize + pageSize
        let frameCount = (log.size - headerSize) / frameSize
        let bigEndianSums = magic & 1 == 1
        var sums = (UInt32(0), UInt32(0))
        checksum(header[0..<24], bigEndian: bigEndianSums, &sums)
        // SQLite ignores the whole log when its header is not sound.
        var chainIsIntact =
            (magic & ~1) == 0x377F_0682 && isPageSize(headerPageSize)
            && sums == (bigEndian(header, 24), bigEndian(header, 28))
        var commits: [Int] = []
        var frame = [UInt8](repeating: 0, count: frameSize)
        var number = 0
        while number < frameCount {
            number += 1
            // Past the break only the frame headers matter.
            let count = chainIsIntact ? frameSize : frameHeaderSize
            guard log.read(into: &frame, at: headerSize + (number - 1) * frameSize, count: count) else { return nil }
            let saltsMatch = frame[8..<16].elementsEqual(header[16..<24])
            let isCommit = bigEndian(frame, 4) != 0
            if chainIsIntact {
                checksum(frame[0..<8], bigEndian: bigEndianSums, &sums)
                checksum(frame[24..<frameSize], bigEndian: bigEndianSums, &sums)
                if saltsMatch, bigEndian(frame, 0) != 0, sums == (bigEndian(frame, 16), bigEndian(frame, 20)) {
                    continue
                }
                chainIsIntact = false
            }
            if saltsMatch && isCommit { commits.append(number) }
        }
        return commits
    }

    private static func isPageSize(_ size: Int) -> Bool {
        size >= 512 && size <= 65536 && size & (size - 1) == 0
    }

    /// The page size the database file's header records (bytes 16–17; 1 means 65,536).
    private static func databasePageSize(_ path: String) -> Int? {
        guard let file = RawFile(path: path), let bytes = file.bytes(at: 16, count: 2) else { return nil }
        let size = Int(bytes[0]) << 8 | Int(bytes[1])
        let pageSize = size == 1 ? 65536 : size
        return isPageSize(pageSize) ? pageSize : nil
    }

    /// SQLite's log checksum: over 32-bit words in the byte order the log's magic number names.
    private static func checksum(
        _ bytes: ArraySlice<UInt8>, bigEndian isBigEndian: Bool, _ sums: inout (UInt32, UInt32)
    ) {
        var (first, second) = sums
        var index = bytes.startIndex
        while index + 8 <= bytes.endIndex {
            let a = word(bytes, index, bigEndian: isBigEndian)
            let b = word(bytes, index + 4, bigEndian: isBigEndian)
            first = first &+ a &+ second
            second = second &+ b &+ first
            index += 8
        }
        sums = (first, second)
    }

    private static func word(_ bytes: ArraySlice<UInt8>, _ index: Int, bigEndian isBigEndian: Bool) -> UInt32 {
        let (b0, b1, b2, b3) = (
            UInt32(bytes[index]), UInt32(bytes[index + 1]), UInt32(bytes[index + 2]), UInt32(bytes[index + 3])
        )
        return isBigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    private static func bigEndian(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        word(bytes[...], index, bigEndian: true)
    }

    /// The `-shm` index's header, as the process that wrote it left it: `WalIndexHdr`, twice (at 0
    /// and 48; SQLite writes both and readers compare them), in the host's byte order.
    private struct IndexHeader {
        var committedFrames: Int
        var salts: ArraySlice<UInt8>

        init?(_ file: RawFile) {
            guard let bytes = file.bytes(at: 0, count: 96), bytes[0..<48] == bytes[48..<96], bytes[12] == 1 else {
                return nil
            }
            committedFrames = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self) })
            salts = bytes[32..<40]
        }
    }
}

/// A file read with `pread`, closed when released.
private final class RawFile {
    let descriptor: Int32
    let size: Int

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Fills the first `count` bytes of `buffer` from `offset`; `false` on a short read.
    func read(into buffer: inout [UInt8], at offset: Int, count: Int) -> Bool {
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }

    /// Whether another process holds a lock on the byte at `offset` (`fcntl(F_GETLK)`: this
    /// process's own locks never show).
    func isLockedByAnotherProcess(at offset: Int) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(offset)
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        return read(into: &buffer, at: offset, count: count) ? buffer : nil
    }
}
