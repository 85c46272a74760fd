extension Database {
    /// How a ``Database`` connection is opened.
    ///
    /// The defaults are the safe ones: `synchronous = FULL`, a five-second busy timeout, foreign
    /// keys enforced, the file must already exist.
    ///
    /// ```swift
    /// var configuration = Database.Configuration()
    /// configuration.createIfMissing = true
    /// configuration.synchronous = .normal
    /// let db = try Database(path: "/tmp/albums/library.sqlite", configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// When SQLite waits for the disk: the `synchronous` pragma.
        ///
        /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_synchronous>
        public enum Synchronous: String, Sendable, Hashable, CaseIterable {
            /// `FULL`: every commit is on disk when it returns; survives power loss. The default.
            case full = "FULL"
            /// `NORMAL`: in WAL mode a commit survives a process crash, and the last commits may be
            /// lost on power loss; the database stays consistent either way.
            case normal = "NORMAL"
        }

        /// Whether to create the file (mode 0600) and its missing folders (mode 0700) when absent.
        public var createIfMissing = false
        /// Whether to open read-only (no WAL switch, no writes).
        public var isReadOnly = false
        /// The `synchronous` setting.
        public var synchronous = Synchronous.full
        /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
        ///
        /// Related SQLite documentation: <https://www.sqlite.org/c3ref/busy_timeout.html>
        public var busyTimeout = Duration.seconds(5)
        /// Whether SQLite enforces `FOREIGN KEY` constraints (on by default here, off in SQLite).
        ///
        /// Related SQLite documentation: <https://www.sqlite.org/foreignkeys.html>
        public var foreignKeysEnabled = true

        /// Creates the default configuration.
        public init() {}
    }
}

extension Duration {
    /// The duration in whole milliseconds, as SQLite's busy timeout takes it.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
