import AlbumLibrary
import Foundation
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the user named on the command line: the source of `import`, the target of `export`.
///
/// Only regular files are read or replaced. A directory, a device, a FIFO or a socket is
/// refused with one short reason naming what it is ("it is a FIFO (named pipe), not a regular
/// file") before a byte moves, so `albums import /dev/zero` cannot hang or fill memory and
/// `albums export /dev/null` cannot swap a device node for a file. Symbolic links are followed to
/// what they name. Reads stop at ``AlbumFile/maximumFileSize``; an export is written to a
/// temporary file beside its destination, synced, then renamed over it, so a failed export leaves
/// the old file as it was.
enum UserFile {
    /// Why a named file was refused: a reason short enough to follow "cannot import PATH: ".
    struct Refusal: Error, Equatable {
        /// The reason, lower case, no trailing period ("no such file").
        var reason: String

        init(reason: String) {
            self.reason = reason
        }

        /// A reason from a system error number, in the words `albums` already uses for the common ones.
        init(errno code: Int32) {
            switch code {
            case ENOENT, ENOTDIR: reason = "no such file"
            case EACCES, EPERM: reason = "permission denied"
            case EISDIR: reason = "it is a directory"
            case ENXIO: reason = "not a regular file"  // A socket, or a device with nothing behind it.
            default:
                let text = FileSystem.reason(errno: code)
                reason = text.prefix(1).lowercased() + text.dropFirst()
            }
        }
    }

    /// Reads every byte of the regular file at `path`, if it holds at most `limit` bytes.
    ///
    /// The file is opened with `O_NONBLOCK` (opening a FIFO never waits for a writer) and checked
    /// with `fstat` on that descriptor, so what is read is what was checked. A `stat` first
    /// spares devices the open itself (opening some has side effects, a tape rewinds). The size
    /// is checked before the first read, and reading stops one byte past `limit` (a file growing
    /// meanwhile), so a huge or sparse file costs nothing.
    ///
    /// - Parameters:
    ///   - path: The path as the user wrote it.
    ///   - limit: The most bytes to accept.
    ///   - tooLarge: The reason given for a file larger than `limit`, from its size (by default
    ///     the import's).
    /// - Returns: The file's bytes.
    /// - Throws: ``Refusal`` when the path names no file, an unreadable one, one that is not
    ///   regular, or one larger than `limit`.
    /// - Complexity: O(*n*) in the file's size.
    static func contents(
        atPath path: String, limit: Int = AlbumFile.maximumFileSize, tooLarge: ((Int) -> String)? = nil
    ) throws(Refusal) -> Data {
        func tooLargeRefusal(_ size: Int) -> Refusal {
            tooLarge.map { Refusal(reason: $0(size)) } ?? Self.tooLarge(size, limit: limit)
        }
        var status = stat()
        if stat(path, &status) == 0 {
            try requireRegular(status)
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal(errno: errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw Refusal(errno: errno) }
        try requireRegular(status)
        guard Int(status.st_size) <= limit else { throw tooLargeRefusal(Int(status.st_size)) }
        if let refusal = ResourceCheck.importRefusal(bytes: Int(status.st_size)) { throw Refusal(reason: refusal) }
        // Reads block as usual from here: O_NONBLOCK was only for the open.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let data = try readToEnd(descriptor, sizeHint: Int(status.st_size), limit: limit + 1)
        guard data.count <= limit else { throw tooLargeRefusal(data.count) }
        return data
    }

    /// The refusal of a stream that went on past ``AlbumFile/maximumFileSize``.
    static var tooLargeInput: Refusal {
        Refusal(
            reason: "more than \(describeSize(AlbumFile.maximumFileSize)), the most albums imports at once "
                + "(it stopped reading there); split the input into smaller files")
    }

    private static func tooLarge(_ size: Int, limit: Int) -> Refusal {
        Refusal(
            reason:
                "it holds \(describeSize(size)), more than the \(describeSize(limit)) albums imports from one file; "
                + "split it into smaller files")
    }

    /// "1.5 GiB", "128 MiB", "900 KiB".
    static func describeSize(_ bytes: Int) -> String {
        let units = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (unit, name) in units where bytes >= unit {
            let value = Double(bytes) / Double(unit)
            return value == value.rounded() ? "\(Int(value)) \(name)" : "\((value * 10).rounded() / 10) \(name)"
        }
        return "\(bytes) bytes"
    }

    /// Replaces the file at `path` with `data`, or leaves it as it was.
    ///
    /// ``replaceContents(atPath:writing:)`` with the bytes at once.
    ///
    /// - Parameters:
    ///   - path: The destination as the user wrote it.
    ///   - data: The new contents.
    /// - Throws: ``Refusal`` with the system's reason.
    static func replaceContents(atPath path: String, with data: Data) throws(Refusal) {
        do {
            try replaceContents(atPath: path) { write in try write(data) }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(reason: "\(error)")  // Unreached: writing `data` throws only refusals.
        }
    }

    /// Replaces the file at `path` with the bytes `produce` writes, piece by piece, or leaves it
    /// as it was.
    ///
    /// The bytes go to a new file in the same folder (`O_EXCL`, so nothing already there is
    /// reused), are synced to disk, and the file is renamed over `path`; the folder is synced so
    /// the rename itself lasts. A failure at any step (a full disk, a quota, a read-only folder, or
    /// `produce` throwing) removes the temporary file and leaves `path` untouched. A new file is
    /// 0600; a file that is replaced keeps its permission bits (never wider than they were) and,
    /// where allowed, its owner.
    ///
    /// Call ``checkExportDestination(_:library:force:)`` first, which refuses what is not a regular file.
    ///
    /// - Parameters:
    ///   - path: The destination as the user wrote it.
    ///   - produce: Writes the new contents through the function it is given, in order.
    /// - Throws: ``Refusal`` with the system's reason, or what `produce` throws.
    static func replaceContents(
        atPath path: String, writing produce: (_ write: (Data) throws(Refusal) -> Void) throws -> Void
    ) throws {
        var existing = stat()
        let replacesFile = lstat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG
        let mode = replacesFile ? existing.st_mode & 0o7777 : 0o600
        let temporary = temporarySibling(of: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Refusal(errno: errno) }
        var closed = false
        func discard() {
            if !closed { close(descriptor) }
            closed = true
            unlink(temporary)
        }
        func fail(_ code: Int32) -> Refusal {
            discard()
            return Refusal(errno: code)
        }
        // The umask may have narrowed the mode given to open: set it exactly (0600, or the old file's).
        if replacesFile { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }
        guard fchmod(descriptor, mode) == 0 else { throw fail(errno) }
        func write(_ data: Data) throws(Refusal) {
            var remaining = data[...]
            while !remaining.isEmpty {
                let written = remaining.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Refusal(errno: errno)
                }
                if written == 0 { throw Refusal(errno: ENOSPC) }
                remaining = remaining.dropFirst(written)
            }
        }
        do {
            try produce(write)
        } catch {
            discard()
            throw error
        }
        guard fsync(descriptor) == 0 else { throw fail(errno) }
        closed = true
        guard close(descriptor) == 0 else { throw fail(errno) }
        guard rename(temporary, path) == 0 else { throw fail(errno) }
        let folder = open(folderPath(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// A name beside `path` for building its replacement: hidden, and unique to this process.
    private static func temporarySibling(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + ".\(name).exporting-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    private static func folderPath(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// Checks that `path` can take an export: absent, or a regular file (or a link to one), in an
    /// existing directory, and not part of the library being exported.
    ///
    /// The export itself replaces the file atomically (a new file renamed over the old), which
    /// would swap a FIFO or a device node for a regular file, or the library for its own JSON;
    /// this check refuses those first.
    ///
    /// - Parameters:
    ///   - path: The destination as the user wrote it.
    ///   - library: The library's path: the destination may be neither it nor one of its companion
    ///     files (``requireNotPartOfLibrary(_:library:)``).
    ///   - force: Whether a file its owner made read-only may be replaced.
    /// - Throws: ``Refusal`` when `path` is the library or a companion, a directory, not a regular
    ///   file, read-only (without `force`), or its directory is missing.
    static func checkExportDestination(_ path: String, library: String, force: Bool = false) throws(Refusal) {
        try requireNotPartOfLibrary(path, library: library)
        var status = stat()
        if stat(path, &status) == 0 {
            try requireRegular(status)
            // A file its owner made read-only (a kept backup) is replaced only when asked, as cp asks.
            if status.st_mode & S_IWUSR == 0, !force {
                let mode = String(status.st_mode & 0o777, radix: 8)
                throw Refusal(reason: "it is read-only (mode 0\(mode)); add --force to replace it")
            }
            return
        }
        let lookError = errno
        // A dangling symbolic link is replaced by the export, as a link to a file is.
        if lstat(path, &status) == 0 { return }
        // Missing, or under something that is not a directory: say which part is wrong.
        guard lookError == ENOENT || lookError == ENOTDIR else { throw Refusal(errno: lookError) }
        let folder = folderPath(of: path)
        guard stat(folder, &status) == 0 else {
            let code = errno
            throw Refusal(
                reason: code == ENOENT || code == ENOTDIR ? "\(folder) does not exist" : Refusal(errno: code).reason)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(reason: "\(folder) is not a directory")
        }
    }

    private static func requireRegular(_ status: stat) throws(Refusal) {
        if let kind = FileSystem.kind(ofMode: UInt32(status.st_mode)) {
            throw Refusal(
                reason: status.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "it is \(kind), not a regular file")
        }
    }

    private static func readToEnd(_ descriptor: Int32, sizeHint: Int, limit: Int) throws(Refusal) -> Data {
        var data = Data(capacity: min(max(sizeHint, 0), limit) + 1)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < limit {
            let wanted = min(buffer.count, limit - data.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw Refusal(errno: errno)
            }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}

/// `write(2)`, named apart from the writing function ``UserFile/replaceContents(atPath:writing:)`` lends.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
