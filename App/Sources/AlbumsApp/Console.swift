import AlbumLibrary
import CommandKit
public import Foundation
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command line writes and reads: standard output, standard error, standard input.
///
/// A value of closures so tests can capture output; ``standard`` is the process's own streams.
/// Writes go straight to the file descriptors (the C `stderr` global is not concurrency-safe).
///
/// Writes to standard output are checked: the first one that fails or comes up short (a full disk,
/// `/dev/full`, a closed pipe with SIGPIPE ignored) is kept in ``outputFailure`` and the writes
/// after it are skipped, so the program can end with one line on standard error and a non-zero
/// status instead of reporting success with the output lost.
public struct Console: Sendable {
    /// Writes text to standard output.
    public var write: @Sendable (String) -> Void
    /// Writes text to standard error.
    public var writeError: @Sendable (String) -> Void
    /// Reads standard input to its end, or to one byte past ``AlbumFile/maximumFileSize`` (the
    /// caller refuses that much), whichever comes first.
    public var readInput: @Sendable () throws -> Data
    /// Why a write to standard output failed ("No space left on device"), or `nil` when none did.
    public var outputFailure: @Sendable () -> String?
    /// Whether standard output is a terminal.
    public var outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars go there).
    public var errorIsTerminal: Bool
    /// Whether standard input is a terminal.
    public var inputIsTerminal: Bool

    /// Creates a console from its parts.
    ///
    /// - Parameters:
    ///   - write: Writes to standard output.
    ///   - writeError: Writes to standard error.
    ///   - readInput: Reads all of standard input.
    ///   - outputIsTerminal: Whether standard output is a terminal.
    ///   - errorIsTerminal: Whether standard error is a terminal.
    ///   - inputIsTerminal: Whether standard input is a terminal.
    ///   - outputFailure: Why a write to standard output failed, if one did.
    public init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        readInput: @escaping @Sendable () throws -> Data,
        outputIsTerminal: Bool,
        errorIsTerminal: Bool,
        inputIsTerminal: Bool,
        outputFailure: @escaping @Sendable () -> String? = { nil }
    ) {
        self.write = write
        self.writeError = writeError
        self.readInput = readInput
        self.outputFailure = outputFailure
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.inputIsTerminal = inputIsTerminal
    }

    /// The process's standard streams.
    public static var standard: Console {
        Console(
            write: { text in
                // After a failure nothing more is written: the output is already incomplete.
                guard standardOutputFailure.withLock({ $0 == nil }) else { return }
                if let failure = StandardDescriptors.wasClosed(1)
                    ? "it was closed when albums started" : writeAll(1, text)
                {
                    standardOutputFailure.withLock { $0 = $0 ?? failure }
                }
            },
            writeError: { _ = writeAll(2, $0) },
            readInput: {
                guard !StandardDescriptors.wasClosed(0) else {
                    throw UserFile.Refusal(
                        reason: "it was closed when albums started (give a file, or pipe the albums in)")
                }
                let data = try readAll(0, limit: AlbumFile.maximumFileSize + 1)
                if let refusal = ResourceCheck.importRefusal(bytes: data.count) {
                    throw UserFile.Refusal(reason: refusal)
                }
                return data
            },
            outputIsTerminal: isatty(1) == 1,
            errorIsTerminal: isatty(2) == 1,
            inputIsTerminal: isatty(0) == 1,
            outputFailure: { standardOutputFailure.withLock { $0 } }
        )
    }

    /// Writes one line on standard error, with every control and bidirectional-override character
    /// in it made visible (``DisplayText/sanitized(_:)``): messages carry paths, arguments and
    /// import keys, which are input.
    ///
    /// - Parameter line: The line, without its newline.
    public func writeErrorLine(_ line: String) {
        writeError(DisplayText.sanitized(line) + "\n")
    }

    /// The first failed write to the process's standard output.
    private static let standardOutputFailure = LockedState<String?>(nil)

    /// Writes every byte of `text` to a file descriptor, retrying short and interrupted writes.
    ///
    /// - Returns: `nil` when every byte was written, else why not (the system's reason).
    static func writeAll(_ descriptor: Int32, _ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                // A descriptor left non-blocking by whoever opened it: wait until it takes more.
                if code == EAGAIN || code == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                return String(cString: strerror(code))
            }
            // write(2) returns 0 for a non-empty buffer only when nothing more can be written.
            if written == 0 { return "nothing could be written" }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }

    /// Reads a descriptor to its end, or until `limit` bytes have been read.
    static func readAll(_ descriptor: Int32, limit: Int) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < limit {
            let wanted = min(buffer.count, limit - data.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw UserFile.Refusal(errno: code)
            }
            data.append(contentsOf: buffer[..<count])
        }
        return data
    }
}

/// `write(2)`, named apart from ``Console/write``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
