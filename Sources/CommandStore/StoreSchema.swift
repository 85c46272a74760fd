import SQLiteDatabase

/// The store's own tables, and how a file proves it is a CommandStore database.
enum StoreSchema {
    /// `PRAGMA application_id` of every CommandStore file: "CmdK" in ASCII.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_application_id>
    static let applicationID: Int32 = 0x436D_644B

    /// The table recording each schema's version.
    static let versionTable = "commandstore_schema"

    /// The store's own schema: the durable history's tables.
    static let schema = Schema(
        identifier: "commandstore",
        migrations: [
            Migration(
                version: 1, name: "durable history",
                sql: """
                    CREATE TABLE commandstore_history_entry (
                        sequence INTEGER PRIMARY KEY,
                        kind TEXT,
                        version INTEGER,
                        text TEXT,
                        action_text TEXT,
                        merge_id INTEGER,
                        significant INTEGER,
                        payload BLOB,
                        base INTEGER,
                        count INTEGER,
                        current_index INTEGER,
                        clean_index INTEGER,
                        undo_limit INTEGER
                    );
                    INSERT INTO commandstore_history_entry (sequence, base, count, current_index, clean_index, undo_limit)
                        VALUES (9223372036854775807, 0, 0, 0, 0, 0);
                    """),
            // A header at the top (index == count) stores NULL for both: the count is read from the
            // entry rows, so a push no longer rewrites the header. Programs reading version 1 would take
            // the NULLs for damage, hence a new version (which they refuse cleanly).
            Migration(
                version: 2, name: "count and index implied at the top",
                sql: """
                    UPDATE commandstore_history_entry SET count = NULL, current_index = NULL
                        WHERE sequence = 9223372036854775807 AND current_index = count;
                    """),
            // Programs reading version 2 look for the header at the largest key: they refuse a version 3
            // file as newer rather than miss its header. Version 3 also writes a NULL `action_text`
            // when it equals `text` (older rows keep theirs).
            Migration(
                version: 3, name: "header row at the smallest key",
                sql: """
                    UPDATE commandstore_history_entry SET sequence = -9223372036854775807 - 1
                        WHERE sequence = 9223372036854775807;
                    """),
            // Format 4 rebuilds the tables: the header moves to a one-row table of its own (no
            // statement filters it out of the entries any more), and each entry gets an identity (a
            // random 64-bit number drawn when it is recorded) and the time it was recorded
            // (milliseconds since 1970), stored before the payload so that reading them never reads
            // a large payload's overflow pages. The identity lets a caller say which step it saw
            // ("undo the step on my Undo button"): a position alone names a different step once
            // another process has undone it and pushed another. Migrated rows have NULL for both.
            Migration(
                version: 4, name: "header table, entry identity and time",
                sql: """
                    CREATE TABLE commandstore_history_header (
                        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                        base INTEGER,
                        count INTEGER,
                        current_index INTEGER,
                        clean_index INTEGER,
                        undo_limit INTEGER
                    );
                    INSERT INTO commandstore_history_header (singleton, base, count, current_index, clean_index, undo_limit)
                        SELECT 1, base, count, current_index, clean_index, undo_limit FROM commandstore_history_entry
                        WHERE sequence = -9223372036854775807 - 1;
                    CREATE TABLE commandstore_history_entry_4 (
                        sequence INTEGER PRIMARY KEY,
                        kind TEXT,
                        version INTEGER,
                        text TEXT,
                        action_text TEXT,
                        merge_id INTEGER,
                        significant INTEGER,
                        step_id INTEGER,
                        recorded_at INTEGER,
                        payload BLOB
                    );
                    INSERT INTO commandstore_history_entry_4
                        (sequence, kind, version, text, action_text, merge_id, significant, payload)
                        SELECT sequence, kind, version, text, action_text, merge_id, significant, payload
                        FROM commandstore_history_entry WHERE sequence > -9223372036854775807 - 1;
                    DROP TABLE commandstore_history_entry;
                    ALTER TABLE commandstore_history_entry_4 RENAME TO commandstore_history_entry;
                    """),
            // Format 5 gives the history a revision, raised by one in every committed write
            // transaction that changes it, so that commits (of any process) can be ordered. It is
            // stored with the next entry's sequence when written (`revision_sequence`) and read as
            // `revision + base + count - revision_sequence`: a push at the top appends a row and so
            // raises it without writing the header (SQLiteHistoryStorage). Migrated files start at 0;
            // their steps are kept as they are. Programs reading version 4 would not raise it, hence
            // a new version (which they refuse as newer).
            Migration(
                version: 5, name: "history revision",
                sql: """
                    ALTER TABLE commandstore_history_header ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE commandstore_history_header ADD COLUMN revision_sequence INTEGER NOT NULL DEFAULT 0;
                    UPDATE commandstore_history_header SET revision_sequence = CASE
                        WHEN count IS NOT NULL THEN base + count
                        ELSE coalesce((SELECT max(sequence) + 1 FROM commandstore_history_entry), base)
                    END;
                    """),
            // Format 6 keeps branches (time travel, opt-in per history): every entry has a node number
            // (its place in the order steps were recorded; migrated rows take sequence + 1), the header
            // the next number and whether the history keeps branches, and the branches off the current
            // path live in a table of their own, each row with its parent node and when it left the
            // path. A linear history is a tree with one branch, so every migrated step is kept as it is.
            Migration(
                version: 6, name: "history tree",
                sql: """
                    ALTER TABLE commandstore_history_entry ADD COLUMN node INTEGER;
                    UPDATE commandstore_history_entry SET node = sequence + 1;
                    CREATE UNIQUE INDEX commandstore_history_entry_node ON commandstore_history_entry (node);
                    ALTER TABLE commandstore_history_header ADD COLUMN next_node INTEGER NOT NULL DEFAULT 1;
                    ALTER TABLE commandstore_history_header ADD COLUMN keeps_branches INTEGER NOT NULL DEFAULT 0;
                    UPDATE commandstore_history_header SET next_node =
                        coalesce((SELECT max(sequence) + 2 FROM commandstore_history_entry), base + 1);
                    CREATE TABLE commandstore_history_branch (
                        node INTEGER PRIMARY KEY,
                        parent INTEGER NOT NULL,
                        visit INTEGER NOT NULL,
                        kind TEXT,
                        version INTEGER,
                        text TEXT,
                        action_text TEXT,
                        merge_id INTEGER,
                        significant INTEGER,
                        step_id INTEGER,
                        recorded_at INTEGER,
                        payload BLOB
                    );
                    CREATE INDEX commandstore_history_branch_parent ON commandstore_history_branch (parent, visit);
                    """),
            // Format 7 records each step's author (an opaque name the application gives,
            // `DurableHistory.author`; NULL for migrated steps and for steps pushed without one), and
            // rebuilds both tables so that the node and the author come before the payload, like
            // the identity and time: reading a step's record never reads a large payload's overflow
            // pages. Programs reading version 6 would record no author, hence a new version.
            Migration(
                version: 7, name: "step authors",
                sql: """
                    CREATE TABLE commandstore_history_entry_7 (
                        sequence INTEGER PRIMARY KEY,
                        kind TEXT,
                        version INTEGER,
                        text TEXT,
                        action_text TEXT,
                        merge_id INTEGER,
                        significant INTEGER,
                        step_id INTEGER,
                        recorded_at INTEGER,
                        node INTEGER,
                        author TEXT,
                        payload BLOB
                    );
                    INSERT INTO commandstore_history_entry_7
                        (sequence, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, node, payload)
                        SELECT sequence, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, node, payload
                        FROM commandstore_history_entry;
                    DROP TABLE commandstore_history_entry;
                    ALTER TABLE commandstore_history_entry_7 RENAME TO commandstore_history_entry;
                    CREATE UNIQUE INDEX commandstore_history_entry_node ON commandstore_history_entry (node);
                    CREATE TABLE commandstore_history_branch_7 (
                        node INTEGER PRIMARY KEY,
                        parent INTEGER NOT NULL,
                        visit INTEGER NOT NULL,
                        kind TEXT,
                        version INTEGER,
                        text TEXT,
                        action_text TEXT,
                        merge_id INTEGER,
                        significant INTEGER,
                        step_id INTEGER,
                        recorded_at INTEGER,
                        author TEXT,
                        payload BLOB
                    );
                    INSERT INTO commandstore_history_branch_7
                        (node, parent, visit, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, payload)
                        SELECT node, parent, visit, kind, version, text, action_text, merge_id, significant, step_id, recorded_at, payload
                        FROM commandstore_history_branch;
                    DROP TABLE commandstore_history_branch;
                    ALTER TABLE commandstore_history_branch_7 RENAME TO commandstore_history_branch;
                    CREATE INDEX commandstore_history_branch_parent ON commandstore_history_branch (parent, visit);
                    """),
        ])

    /// Writes the identity of a new store: application ID and the version table.
    static func bootstrap(_ db: Database) throws {
        try db.execute("PRAGMA application_id = \(applicationID)")
        try db.execute("CREATE TABLE \(versionTable) (identifier TEXT PRIMARY KEY, version INTEGER NOT NULL)")
    }

    /// The recorded version of each schema.
    static func versions(_ db: Database) throws -> [String: Int] {
        var versions: [String: Int] = [:]
        for row in try db.fetchAll("SELECT identifier, version FROM \(versionTable)") {
            versions[try row.decode(String.self, at: 0)] = try row.decode(Int.self, at: 1)
        }
        return versions
    }

    /// Runs every missing migration of every schema, in one transaction.
    ///
    /// With `existingFile`, a migration that fails with an SQL error (`SQLITE_ERROR`: "duplicate
    /// column name", "table … already exists") met tables that are not what the recorded version
    /// made: the file is inconsistent (a version set lower than its tables), and the refusal says
    /// so as ``StoreError/Code/corruptDatabase``. The whole upgrade is rolled back either way.
    static func migrate(_ db: Database, schemas: [Schema], existingFile: String? = nil) throws {
        // Up to date (every open but the first after an upgrade): no write transaction at all.
        let known = try versions(db)
        if schemas.allSatisfy({ known[$0.identifier] == $0.version || ($0.version == 0 && known[$0.identifier] == nil) }
        ) {
            return
        }
        try db.inTransaction {
            let recorded = try versions(db)
            for schema in schemas {
                let current = recorded[schema.identifier] ?? 0
                for migration in schema.migrations where migration.version > current {
                    do {
                        try migration.body(db)
                    } catch let error as DatabaseError
                        where existingFile != nil && error.resultCode.primaryResultCode == .error
                    {
                        let path = existingFile ?? db.path
                        throw StoreError(
                            .corruptDatabase,
                            "\(path) is inconsistent: it records its \(schema.identifier) schema at version \(current), "
                                + "but its tables do not take migration \(migration.version) (“\(migration.name)”): "
                                + "\(error.message); it was not migrated and not changed",
                            path: path, databaseError: error)
                    }
                }
                if schema.version > current {
                    try db.execute(
                        "INSERT OR REPLACE INTO \(versionTable) (identifier, version) VALUES (?, ?)",
                        [schema.identifier, schema.version]
                    )
                }
            }
            return .commit
        }
    }

    /// Prepares the header query, explaining a missing table (a database not opened as a store).
    static func prepareHeaderQuery(_ database: Database) throws -> Statement {
        do {
            return try database.prepare(
                """
                SELECT base, count, current_index, clean_index, undo_limit, revision, revision_sequence,
                    next_node, keeps_branches
                FROM commandstore_history_header WHERE singleton = 1
                """
            )
        } catch let error as DatabaseError where error.message.contains("no such table") {
            throw StoreError(
                .foreignDatabase,
                "\(database.path) has no durable history tables: open it with Database.openStore(path:schemas:configuration:)",
                path: database.path,
                databaseError: error
            )
        }
    }
}
