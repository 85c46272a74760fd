public import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Database {
    /// Opens (or creates) a CommandStore database: checks the file is one, refuses newer ones, and
    /// runs the missing migrations of the store and of your schemas in one transaction.
    ///
    /// Before anything is written, the file is read through a separate read-only, lock-free
    /// connection that creates no `-wal` or `-shm` file. A file that fails any check is left
    /// byte-for-byte as it was, and the error names it:
    ///
    /// - an empty file, or one that is not SQLite: ``StoreError/Code/notADatabase``;
    /// - a truncated or malformed SQLite file: ``StoreError/Code/corruptDatabase``;
    /// - a file whose tables do not take a missing migration (an SQL error such as "duplicate
    ///   column name": it records a version lower than its tables): ``StoreError/Code/corruptDatabase``
    ///   saying it is inconsistent, the upgrade rolled back;
    /// - an SQLite database without CommandStore's application ID and version table:
    ///   ``StoreError/Code/foreignDatabase``;
    /// - a CommandStore file of another application, whose schemas (say `notes`) share no
    ///   identifier with `schemas` (say `albums`): ``StoreError/Code/foreignDatabase``, the
    ///   message naming both;
    /// - a schema recorded at a higher version than its last migration here:
    ///   ``StoreError/Code/newerSchema``;
    /// - a directory, FIFO, device, socket at `path`, or anything but a regular file at its `-wal`,
    ///   `-shm` or `-journal` path: ``StoreError/Code/notARegularFile``, before anything is opened;
    /// - a file that is read-only, or whose folder is while its `-wal`/`-shm` files are missing: a
    ///   `DatabaseError` with code `readOnly` naming the file and the remedy;
    /// - a `-wal` log that a connection marked as the log of another file (the file at `path` was
    ///   moved over, or removed, while that connection had the old one open): a `DatabaseError` with
    ///   code `cantOpen` naming both and the remedy, before anything reads the log.
    ///
    /// A `-wal` log left behind by a connection that did not close (a killed process) is read
    /// first, before any connection replays it: SQLite drops, without a word, every commit logged
    /// after a damaged frame, and the number of commits so lost is kept on the connection for the
    /// application to say (package API: `lostLogCommits`).
    ///
    /// Existing `-wal` and `-shm` files are given the database's permission bits before the open
    /// (SQLite copies the mode once, at creation; a log made while the file was read-only would
    /// otherwise keep every later write failing).
    ///
    /// The ownership check needs one shared identifier: a later version of an application that adds
    /// a schema still opens its old files. A store that records no schema but the store's own yet
    /// is opened, and so is any store when `schemas` is empty (a tool that only reads histories).
    ///
    /// A new file is built under a temporary name next to `path` (mode 0600, missing folders 0700),
    /// fully migrated, then linked into place, so a crash never leaves a half-created store.
    ///
    /// ```swift
    /// var configuration = Database.Configuration()
    /// configuration.createIfMissing = true
    /// let db = try Database.openStore(path: path, schemas: [albumsSchema], configuration: configuration)
    /// ```
    ///
    /// Corruption in pages that opening does not read is reported later, as a `DatabaseError` with
    /// code `corrupt` naming the file, by the statement that reads them; ``checkIntegrity()`` reads all.
    ///
    /// - Parameters:
    ///   - path: The file, or `:memory:` for a private in-memory store.
    ///   - schemas: Your schemas, migrated in this order after the store's own.
    ///   - configuration: How to open the connection.
    /// - Returns: An open connection to the migrated store.
    /// - Throws: ``StoreError`` for the cases above (`notADatabase`, `corruptDatabase`,
    ///   `foreignDatabase` for an SQLite file CommandStore did not create or a store of another
    ///   application, `newerSchema`, `notARegularFile`), `DatabaseError` for SQLite failures (`readOnly`
    ///   for a file that cannot be written), or what a migration
    ///   throws (after rolling the whole upgrade back).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/uri.html> (`immutable`),
    /// <https://www.sqlite.org/pragma.html#pragma_application_id>
    public static func openStore(
        path: String,
        schemas: [Schema] = [],
        configuration: Configuration = Configuration()
    ) throws -> Database {
        let schemas = [StoreSchema.schema] + schemas
        try validate(schemas)
        if path == ":memory:" {
            let db = try Database(path: path, configuration: configuration)
            try StoreSchema.bootstrap(db)
            try StoreSchema.migrate(db, schemas: schemas)
            return db
        }
        // Before anything opens a path: a FIFO would block the open, a device could act on it, and
        // SQLite deletes its log at close, whatever sits there.
        try requireRegularOrAbsent(path)
        try requireRegularCompanions(of: path)
        if !FileSystem.exists(path) {
            guard configuration.createIfMissing else {
                throw DatabaseError(resultCode: .cantOpen, message: "cannot open \(path): no such file", path: path)
            }
            // A log without its database belongs to a database that is gone: SQLite would replay it
            // into the new file.
            if FileSystem.exists(path + "-wal") {
                throw StoreError(
                    .corruptDatabase,
                    "\(path) does not exist but its write-ahead log \(path)-wal does (left by a database that was moved "
                        + "or deleted): restore the database or move the log away; nothing was changed",
                    path: path
                )
            }
            try createStore(at: path, schemas: schemas, configuration: configuration)
        }
        // A log marked as another file's (this one was moved over it while it was open): refused
        // before any look reads it, with the reason, rather than judged by what it shows.
        try WriteAheadLogOwner.requireLog(of: path)
        // Before any connection reads the log (and, the first, rebuilds its index): SQLite drops the
        // commits logged after a damaged frame without a word.
        let lostLogCommits = WriteAheadLogScan.lostCommits(databaseAt: FileSystem.resolvedPath(path))
        try inspect(path: path, schemas: schemas, busyTimeout: configuration.busyTimeout)
        try inspectLog(path: path, busyTimeout: configuration.busyTimeout)
        if !configuration.isReadOnly {
            try FileSystem.requireWritable(path)
            FileSystem.matchCompanionModes(of: path)
        }
        var existing = configuration
        existing.createIfMissing = false
        let db = try Database(path: path, configuration: existing)
        do {
            // The lock-free look ignored the WAL: check again what the log may have changed.
            let recorded = try StoreSchema.versions(db)
            if let refusal = foreignApplicationError(recorded, schemas: schemas, path: path) { throw refusal }
            try checkVersions(recorded, schemas: schemas, path: path)
            try StoreSchema.migrate(db, schemas: schemas, existingFile: path)
        } catch {
            db.close()
            throw error
        }
        db.lostLogCommits = lostLogCommits
        return db
    }

    /// Reads every page and reports the first problem SQLite finds.
    ///
    /// - Complexity: O(size of the database): for a maintenance command, not for every open.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/corruptDatabase`` naming the file and
    ///   SQLite's findings, or a `DatabaseError`.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_integrity_check>
    public func checkIntegrity() throws {
        let findings: [String]
        do {
            findings = try fetchAll("PRAGMA integrity_check").map { try $0.decode(String.self, at: 0).oneLine }
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .corrupt {
            throw StoreError(.corruptDatabase, error.message.oneLine, path: path, databaseError: error)
        }
        guard findings != ["ok"] else { return }
        throw StoreError(
            .corruptDatabase,
            "\(path) is damaged: \(findings.prefix(5).joined(separator: "; "))",
            path: path
        )
    }

    /// The version recorded for a schema in this store, or `nil` if it was never migrated here.
    ///
    /// - Parameter identifier: The schema's identifier.
    /// - Throws: `DatabaseError`.
    public func schemaVersion(of identifier: String) throws -> Int? {
        try fetchOne("SELECT version FROM \(StoreSchema.versionTable) WHERE identifier = ?", [identifier])?
            .decode(Int.self, at: 0)
    }

    private static func validate(_ schemas: [Schema]) throws {
        var seen: Set<String> = []
        for (offset, schema) in schemas.enumerated() {
            if offset > 0, schema.identifier == StoreSchema.schema.identifier {
                throw StoreError(
                    .invalidSchema, "schema identifier \(schema.identifier) is reserved for the store's own tables")
            }
            guard seen.insert(schema.identifier).inserted else {
                throw StoreError(.invalidSchema, "schema \(schema.identifier) is given twice")
            }
            for (offset, migration) in schema.migrations.enumerated() where migration.version != offset + 1 {
                throw StoreError(
                    .invalidSchema,
                    "schema \(schema.identifier): migration \"\(migration.name)\" has version \(migration.version), "
                        + "expected \(offset + 1)"
                )
            }
        }
    }

    /// The refusal for a store of another application, which records schemas of its own and none
    /// of `schemas`; `nil` when the store may be opened with `schemas`.
    ///
    /// One shared identifier is enough, so a version of an application that adds a schema still
    /// opens the files of the version before. Without schemas requested (a tool that reads any
    /// history), or in a store that records none yet, there is nothing to compare.
    ///
    /// - Parameters:
    ///   - recorded: The versions recorded in the file, the store's own included.
    ///   - schemas: The schemas to open with, the store's own first.
    ///   - path: The file, for the message.
    /// - Returns: A ``StoreError`` with code ``StoreError/Code/foreignDatabase`` naming the file and
    ///   both sets of schemas, or `nil`.
    private static func foreignApplicationError(
        _ recorded: [String: Int], schemas: [Schema], path: String
    ) -> StoreError? {
        let own = StoreSchema.schema.identifier
        let held = recorded.keys.filter { $0 != own }.sorted()
        let requested = schemas.map(\.identifier).filter { $0 != own }
        guard !held.isEmpty, !requested.isEmpty, !requested.contains(where: held.contains) else { return nil }
        return StoreError(
            .foreignDatabase,
            "\(path) belongs to another application (schemas: \(held.joined(separator: ", "))); this program uses: "
                + "\(requested.joined(separator: ", ")); the file was not changed",
            path: path
        )
    }

    private static func checkVersions(_ recorded: [String: Int], schemas: [Schema], path: String) throws {
        for schema in schemas {
            if let version = recorded[schema.identifier], version > schema.version {
                throw StoreError(
                    .newerSchema,
                    "\(path) was written by a newer program: its \(schema.identifier) schema is at version "
                        + "\(version), this program knows versions up to \(schema.version); the file was not changed",
                    path: path
                )
            }
        }
    }

    /// Looks at an existing file without writing anything, and throws if it is not a store we can open.
    ///
    /// The first look takes no lock (`immutable=1`), so it cannot create or change any file. While
    /// another process has the store open, its checkpoint may be copying pages into the file during
    /// that look, which then reads a torn page and reports damage that is not there. So when the
    /// lock-free look finds damage and the store may be live (a `-wal` log exists, or the file
    /// changed during the look), the look is repeated through a read-only connection that takes a
    /// WAL read lock, which checkpoints respect. A checkpoint on close ends by deleting the log, so
    /// a look torn by it may find no log and an unchanged stamp (timestamps are coarse): the
    /// lock-free look is then tried again, a few times, before the damage is believed.
    private static func inspect(path: String, schemas: [Schema], busyTimeout: Duration) throws {
        guard let size = FileSystem.size(of: path) else {
            throw FileSystem.systemError("cannot open \(path)", path: path)
        }
        guard size > 0 else {
            throw StoreError(
                .notADatabase, "\(path) is empty: it is not a CommandStore database; the file was not changed",
                path: path)
        }
        var looks = 0
        while true {
            let before = FileSystem.stamp(of: path)
            do {
                // `immutable=1`: no locks, no -wal/-shm, no journal recovery, nothing written.
                try inspect(path: path, schemas: schemas, mode: .immutable, busyTimeout: nil)
                return
            } catch let error as StoreError where error.code == .corruptDatabase || error.code == .notADatabase {
                if FileSystem.exists(path + "-wal") || FileSystem.stamp(of: path) != before {
                    return try inspect(path: path, schemas: schemas, mode: .readOnly, busyTimeout: busyTimeout)
                }
                looks += 1
                // Real damage costs three quick looks; a torn one is gone by the next.
                guard looks < 3 else { throw error }
            }
        }
    }

    /// One look at the file through a read-only connection opened with the given URI query.
    private static func inspect(
        path: String, schemas: [Schema], mode: InspectionMode, busyTimeout: Duration?
    ) throws {
        let db = try classifying(path) {
            try Database.openForInspection(path: path, mode: mode, busyTimeout: busyTimeout)
        }
        defer { db.close() }
        // Reading the schema reads page 1 and the schema table: a non-database or damaged header fails here.
        let hasVersionTable = try classifying(path) {
            try db.fetchOne(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                [StoreSchema.versionTable]
            )?.decode(Int.self, at: 0) == 1
        }
        let applicationID = try classifying(path) {
            try db.fetchOne("PRAGMA application_id")?.decode(Int.self, at: 0) ?? 0
        }
        guard applicationID == Int(StoreSchema.applicationID), hasVersionTable else {
            let reason =
                applicationID == Int(StoreSchema.applicationID)
                ? "it has CommandStore's application ID but no \(StoreSchema.versionTable) table"
                : "its application ID is \(applicationID), not CommandStore's \(StoreSchema.applicationID)"
            throw StoreError(
                .foreignDatabase,
                "\(path) is an SQLite database that CommandStore did not create (\(reason)); the file was not changed",
                path: path
            )
        }
        let recorded = try classifying(path) { try StoreSchema.versions(db) }
        if let refusal = foreignApplicationError(recorded, schemas: schemas, path: path) {
            // Damage to the version table can rename a schema: a damaged file is reported as such,
            // not as another application's.
            let findings = try integrityFindings(db, path: path)
            guard findings == ["ok"] else {
                throw StoreError(
                    .corruptDatabase,
                    "\(path) is damaged (\(findings.prefix(3).joined(separator: "; "))); the file was not changed",
                    path: path
                )
            }
            throw refusal
        }
        try checkVersions(recorded, schemas: schemas, path: path)
        // A migration is about to write to this file: never into a damaged one (a flipped bit can
        // make a schema look older, and its migration would then build on the damage).
        if schemas.contains(where: { (recorded[$0.identifier] ?? 0) < $0.version }) {
            let findings = try integrityFindings(db, path: path)
            guard findings == ["ok"] else {
                throw StoreError(
                    .corruptDatabase,
                    "\(path) is damaged (\(findings.prefix(3).joined(separator: "; "))); it was not migrated and not changed",
                    path: path
                )
            }
        }
    }

    /// SQLite's findings on every page of the file: `["ok"]` when it is sound.
    ///
    /// - Complexity: O(size of the database).
    private static func integrityFindings(_ db: Database, path: String) throws -> [String] {
        try classifying(path) {
            try db.fetchAll("PRAGMA integrity_check").map { try $0.decode(String.self, at: 0).oneLine }
        }
    }

    /// Reads the file through its `-wal` log, read-only, and throws if what it shows is damaged.
    ///
    /// The first read-write connection replays a `-wal` log and its close checkpoints the log into
    /// the file. A log that belongs to another database (left next to a file that was replaced or
    /// restored) would so overwrite good pages. A read-only connection reads through the log without
    /// replaying it into the file, so the check changes neither file (SQLite may create its `-shm`
    /// index). Runs only when a non-empty log exists: after a crash, or while another process has
    /// the store open.
    ///
    /// - Complexity: O(size of the database) when a log exists (`PRAGMA quick_check`); O(1) otherwise.
    private static func inspectLog(path: String, busyTimeout: Duration) throws {
        guard let size = FileSystem.size(of: path + "-wal"), size > 0 else { return }
        let db = try Database.openForInspection(path: path, mode: .readOnly, busyTimeout: busyTimeout)
        defer { db.close() }
        let findings: [String]
        do {
            findings = try db.fetchAll("PRAGMA quick_check").map { try $0.decode(String.self, at: 0).oneLine }
        } catch let error as DatabaseError
            where error.resultCode.primaryResultCode == .corrupt || error.resultCode.primaryResultCode == .notADatabase
        {
            findings = [error.message]
        }
        guard findings == ["ok"] else {
            throw StoreError(
                .corruptDatabase,
                "\(path) is damaged when read through its write-ahead log \(path)-wal (the log is damaged or belongs "
                    + "to another database): \(findings.prefix(3).joined(separator: "; ")); the files were not changed",
                path: path
            )
        }
    }

    /// Runs `body`, turning a bad-file `DatabaseError` into a ``StoreError``.
    private static func classifying<Value>(_ path: String, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
    }

    /// Turns SQLite's verdict on a bad file into a store error that names it.
    private static func classify(_ error: DatabaseError, path: String) -> any Error {
        switch error.resultCode.primaryResultCode {
        case .notADatabase:
            return StoreError(
                .notADatabase,
                "\(path) is not an SQLite database (so not a CommandStore database); the file was not changed",
                path: path,
                databaseError: error
            )
        case .corrupt:
            return StoreError(
                .corruptDatabase,
                "\(path) is a damaged SQLite database (truncated or malformed); the file was not changed",
                path: path,
                databaseError: error
            )
        default:
            return error
        }
    }

    /// Builds a new store under a temporary name, then links it into place.
    private static func createStore(at path: String, schemas: [Schema], configuration: Configuration) throws {
        try FileSystem.createParentDirectories(of: path)
        let temporary = FileSystem.temporarySibling(of: path)
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            var building = configuration
            building.createIfMissing = true
            let db = try Database(path: temporary, configuration: building)
            try StoreSchema.bootstrap(db)
            try StoreSchema.migrate(db, schemas: schemas)
            // Every page must be in the file before it is linked into place: the log goes with the
            // temporary name. Closing would checkpoint too, but silently: on a full disk it left a
            // file without its last pages, linked as a library that then read as damaged.
            do {
                let result = try db.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)")
                let busy = try result?.decode(Int.self, at: 0) ?? 1
                let logged = try result?.decode(Int.self, at: 1) ?? -1
                let copied = try result?.decode(Int.self, at: 2) ?? -2
                guard busy == 0, logged == copied else {
                    throw DatabaseError(
                        resultCode: .ioError,
                        message: "cannot create \(path): its pages could not all be written; nothing was created",
                        path: path)
                }
            } catch {
                db.close()
                throw error
            }
            db.close()
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .full {
            // SQLite names the temporary file; the user named the store.
            throw DatabaseError(
                resultCode: .full, message: "no space left on device to create it; nothing was created", path: path)
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw FileSystem.systemError("cannot create \(path)", path: path)
        }
        // EEXIST: another process created the store first; we open theirs.
    }

    /// Throws unless `path` is absent or a regular file (symbolic links followed).
    ///
    /// Only `stat`: nothing is opened, so a FIFO or a device is refused before anything can block
    /// on it or set it off.
    private static func requireRegularOrAbsent(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if let kind = FileSystem.kind(ofMode: UInt32(info.st_mode)) {
            throw StoreError(
                .notARegularFile, "\(path) is \(kind), not a database file; nothing was opened or changed", path: path)
        }
    }

    /// Throws when something other than a regular file sits at one of `path`'s companion paths.
    ///
    /// SQLite would open it as its log or index, and delete it at close: a FIFO, a device node, a
    /// folder or a link there is not ours to use or remove. Only `lstat`, nothing opened.
    private static func requireRegularCompanions(of path: String) throws {
        for (suffix, role) in [
            ("-wal", "write-ahead log"), ("-shm", "shared-memory index"), ("-journal", "rollback journal"),
        ] {
            var info = stat()
            guard lstat(path + suffix, &info) == 0, let kind = FileSystem.kind(ofMode: UInt32(info.st_mode)) else {
                continue
            }
            throw StoreError(
                .notARegularFile,
                "\(path)\(suffix) is \(kind), where \(path)'s \(role) belongs; move it away (nothing was opened or changed)",
                path: path
            )
        }
    }
}

extension String {
    /// The text on one line: SQLite's findings can hold line breaks ("*** in database main ***\n…").
    var oneLine: String {
        // Plain loops over substrings: the lazy drop/reverse chain this replaced made the runtime
        // build its nested generic types at first use, a conformance search costing 40% of a
        // short albums command in the statically linked binary.
        var lines: [Substring] = []
        for line in split(whereSeparator: \.isNewline) {
            var trimmed = line
            while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
            while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
            if !trimmed.isEmpty { lines.append(trimmed) }
        }
        return lines.joined(separator: " ")
    }
}
