internal import CSQLite

extension Database {
    /// How ``openForInspection(path:mode:busyTimeout:)`` reads a file.
    package enum InspectionMode {
        /// `immutable=1`: no locks, no `-wal`/`-shm`, no journal recovery, nothing written. Misses
        /// what a write-ahead log holds.
        case immutable
        /// `mode=ro`: read-only, through the write-ahead log (SQLite may create the `-shm` file).
        case readOnly
    }

    /// Opens a connection that only reads `path`, to look at a file before trusting it (its
    /// header, identity and schema versions) without changing it.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - mode: Whether to take locks and read the write-ahead log.
    ///   - busyTimeout: How long to wait for a writer's lock, or `nil` for SQLite's default (none).
    /// - Returns: A read-only connection, named by `path` in its errors.
    /// - Throws: ``DatabaseError`` when SQLite cannot open it.
    package static func openForInspection(
        path: String, mode: InspectionMode, busyTimeout: Duration?
    ) throws -> Database {
        let query =
            switch mode {
            case .immutable: "immutable=1"
            case .readOnly: "mode=ro"
            }
        let uri = "file:" + percentEncoded(path) + "?" + query
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let connection = try openConnection(path: uri, flags: flags, reportedPath: path)
        if let busyTimeout, let handle = connection.handle {
            sqlite3_busy_timeout(handle, Int32(clamping: busyTimeout.milliseconds))
        }
        return Database(inspecting: connection, path: path)
    }

    /// `path` as the path part of an SQLite URI: unreserved bytes as they are, the rest `%XX`.
    private static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
