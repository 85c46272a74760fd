#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The standard descriptors the process was started without (`albums import - <&-`,
/// `albums export >&-`).
///
/// A closed 0, 1 or 2 is taken by the next file the process opens: libdispatch's event descriptor
/// became descriptor 0 and `import -` waited on it forever. So before anything opens a file
/// (``closedAtStart`` is first read by `AlbumsApp` before Dispatch starts), each closed one is
/// filled with `/dev/null`, where a read ends at once and a write lands in no file, and remembered:
/// `Console` refuses to read or write it, in the program's words.
enum StandardDescriptors {
    /// The standard descriptors that were closed at start (filled with `/dev/null` since).
    static let closedAtStart: [Int32] = fillClosed()

    /// Whether `descriptor` (0, 1 or 2) was closed when the process started.
    static func wasClosed(_ descriptor: Int32) -> Bool {
        closedAtStart.contains(descriptor)
    }

    private static func fillClosed() -> [Int32] {
        var closed: [Int32] = []
        // In order: with 0...descriptor-1 open (or filled) by now, `open` returns `descriptor`.
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let filled = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if filled != descriptor && filled >= 0 { close(filled) }
            closed.append(descriptor)
        }
        return closed
    }
}
