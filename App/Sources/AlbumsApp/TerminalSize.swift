#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width of the terminal standard output goes to.
enum TerminalSize {
    /// The terminal's columns: `$COLUMNS` when set (as shells export it), else the terminal's own
    /// size, else `nil`.
    static func columns(environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
