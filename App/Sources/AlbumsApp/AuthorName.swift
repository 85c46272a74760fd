#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The name albums records with every step it makes (CommandStore's `DurableHistory.author`):
/// `--author NAME`, else `ALBUMS_AUTHOR`, else the login name and host (`ada@studio`).
enum AuthorName {
    /// The longest name accepted, in characters: it is shown in every history line.
    static let maximumLength = 64

    /// The name to record.
    ///
    /// - Parameters:
    ///   - explicit: The `--author` value, if given.
    ///   - environment: `ALBUMS_AUTHOR`, `USER` and `LOGNAME` are read.
    /// - Returns: The name, checked.
    /// - Throws: ``UsageError`` for an empty or over-long name, or one with control characters.
    static func resolve(explicit: String?, environment: [String: String]) throws(UsageError) -> String {
        if let explicit { return try checked(explicit, source: "--author") }
        if let variable = environment["ALBUMS_AUTHOR"] { return try checked(variable, source: "ALBUMS_AUTHOR") }
        let login = environment["USER"] ?? environment["LOGNAME"] ?? accountName() ?? "uid\(geteuid())"
        let name = hostName().map { "\(login)@\($0)" } ?? login
        // The system's names are not the user's to fix: cut them to size rather than refuse.
        let cleaned = String(name.unicodeScalars.filter { !isControl($0) }.prefix(maximumLength).map(Character.init))
        return cleaned.isEmpty ? "uid\(geteuid())" : cleaned
    }

    static func checked(_ name: String, source: String) throws(UsageError) -> String {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw UsageError("\(source) needs a name") }
        guard !trimmed.unicodeScalars.contains(where: isControl) else {
            throw UsageError("\(source): a name cannot hold control characters")
        }
        guard trimmed.count <= maximumLength else {
            throw UsageError("\(source): a name is at most \(maximumLength) characters (this one has \(trimmed.count))")
        }
        return trimmed
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
    }

    private static func accountName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    private static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
