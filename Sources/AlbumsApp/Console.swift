public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command line writes and reads: standard output, standard error, standard input.
///
/// A value of closures so tests can capture output; ``standard`` is the process's own streams.
/// Writes go straight to the file descriptors (the C `stderr` global is not concurrency-safe).
public struct Console: Sendable {
    /// Writes text to standard output.
    public var write: @Sendable (String) -> Void
    /// Writes text to standard error.
    public var writeError: @Sendable (String) -> Void
    /// Reads all of standard input.
    public var readInput: @Sendable () throws -> Data
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
    public init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        readInput: @escaping @Sendable () throws -> Data,
        outputIsTerminal: Bool,
        errorIsTerminal: Bool,
        inputIsTerminal: Bool
    ) {
        self.write = write
        self.writeError = writeError
        self.readInput = readInput
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.inputIsTerminal = inputIsTerminal
    }

    /// The process's standard streams.
    public static var standard: Console {
        Console(
            write: { writeAll(1, $0) },
            writeError: { writeAll(2, $0) },
            readInput: { try FileHandle.standardInput.readToEnd() ?? Data() },
            outputIsTerminal: isatty(1) == 1,
            errorIsTerminal: isatty(2) == 1,
            inputIsTerminal: isatty(0) == 1
        )
    }

    /// Writes every byte of `text` to a file descriptor, retrying short writes.
    static func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// `write(2)`, named apart from ``Console/write``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
