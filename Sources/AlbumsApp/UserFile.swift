import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the user named on the command line: the source of `import`, the target of `export`.
///
/// Only regular files are read or replaced. A directory, a device, a FIFO or a socket is
/// refused with one short reason ("it is a directory", "not a regular file") before a byte
/// moves, so `albums import /dev/zero` cannot hang or fill memory and `albums export /dev/null`
/// cannot swap a device node for a file. Symbolic links are followed to what they name.
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
                let text = String(cString: strerror(code))
                reason = text.prefix(1).lowercased() + text.dropFirst()
            }
        }
    }

    /// Reads every byte of the regular file at `path`.
    ///
    /// The file is opened with `O_NONBLOCK` (opening a FIFO never waits for a writer) and checked
    /// with `fstat` on that descriptor, so what is read is what was checked. A `stat` first
    /// spares devices the open itself (opening some has side effects, a tape rewinds).
    ///
    /// - Parameter path: The path as the user wrote it.
    /// - Returns: The file's bytes.
    /// - Throws: ``Refusal`` when the path names no file, an unreadable one, or one that is not regular.
    /// - Complexity: O(*n*) in the file's size.
    static func contents(atPath path: String) throws(Refusal) -> Data {
        var status = stat()
        if stat(path, &status) == 0 {
            try requireRegular(status)
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Refusal(errno: errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw Refusal(errno: errno) }
        try requireRegular(status)
        // Reads block as usual from here: O_NONBLOCK was only for the open.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return try readToEnd(descriptor, sizeHint: Int(status.st_size))
    }

    /// Checks that `path` can take an export: absent, or a regular file (or a link to one), in an
    /// existing directory.
    ///
    /// The export itself replaces the file atomically (a new file renamed over the old), which
    /// would swap a FIFO or a device node for a regular file; this check refuses those first.
    ///
    /// - Parameter path: The destination as the user wrote it.
    /// - Throws: ``Refusal`` when `path` is a directory, not a regular file, or its directory is missing.
    static func checkExportDestination(_ path: String) throws(Refusal) {
        var status = stat()
        if stat(path, &status) == 0 {
            try requireRegular(status)
            return
        }
        let lookError = errno
        // A dangling symbolic link is replaced by the export, as a link to a file is.
        if lstat(path, &status) == 0 { return }
        // Missing, or under something that is not a directory: say which part is wrong.
        guard lookError == ENOENT || lookError == ENOTDIR else { throw Refusal(errno: lookError) }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
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
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw Refusal(reason: "it is a directory")
        default: throw Refusal(reason: "not a regular file")
        }
    }

    private static func readToEnd(_ descriptor: Int32, sizeHint: Int) throws(Refusal) -> Data {
        var data = Data(capacity: max(sizeHint, 0) + 1)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw Refusal(errno: errno)
            }
            data.append(contentsOf: buffer[..<count])
        }
    }
}
