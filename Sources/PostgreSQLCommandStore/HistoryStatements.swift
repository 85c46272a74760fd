#if PostgreSQL
import CommandStore
import PostgreSQLDatabase

/// The SQL of one history's tables, `<prefix>_header`, `<prefix>_entry` and `<prefix>_branch`,
/// built once from a checked prefix.
///
/// Table names cannot be bound parameters, so they are the one thing spelled into the SQL: the
/// prefix is checked to be a plain lowercase identifier (letters, digits, `_`) first, so it can
/// carry no SQL. Every value still travels as a bound `$n`.
struct HistoryStatements {
    /// The header table: one row, the history's count, index, clean index, undo limit and revision.
    let header: String
    /// The entry table: one row per entry of the current path, keyed by sequence (position `p` is
    /// `base + p`), each with its node in the tree.
    let entry: String
    /// The branch table: the parked nodes of a branching history, each with its parent and `visit`.
    let branch: String
    /// The NOTIFY channel commits announce themselves on (the prefix).
    let channel: String

    /// The longest prefix: PostgreSQL truncates identifiers at 63 bytes, and `_branch_parent` must fit.
    static let longestPrefix = 48

    /// - Throws: `StoreError/Code/invalidSchema` for a prefix that is not a plain identifier.
    init(prefix: String) throws {
        let first = prefix.utf8.first
        let valid =
            !prefix.isEmpty && prefix.utf8.count <= Self.longestPrefix
            && first.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") } == true
            && prefix.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            }
        guard valid else {
            throw StoreError(
                .invalidSchema,
                "the history's table prefix “\(prefix)” is not a lowercase identifier (a-z, 0-9, _; at most \(Self.longestPrefix) characters)"
            )
        }
        header = prefix + "_header"
        entry = prefix + "_entry"
        branch = prefix + "_branch"
        channel = prefix
    }

    // MARK: The schema

    /// The migrations, in order: version 1 made a database of the first release, which still opens.
    var migrations: [PostgreSQLMigration] {
        [
            PostgreSQLMigration(version: 1, name: "linear history", statements: createTables),
            PostgreSQLMigration(version: 2, name: "branches", statements: addBranches),
        ]
    }

    /// Version 1: the linear history.
    var createTables: [String] {
        [
            """
            CREATE TABLE \(header) (
                singleton integer PRIMARY KEY CHECK (singleton = 1),
                base bigint NOT NULL,
                count bigint NOT NULL,
                current_index bigint NOT NULL,
                clean_index bigint,
                undo_limit bigint NOT NULL,
                revision bigint NOT NULL
            )
            """,
            "INSERT INTO \(header) VALUES (1, 0, 0, 0, 0, 0, 0)",
            """
            CREATE TABLE \(entry) (
                sequence bigint PRIMARY KEY,
                kind text,
                version integer NOT NULL,
                text text NOT NULL,
                action_text text NOT NULL,
                merge_id bigint,
                significant boolean NOT NULL,
                payload bytea NOT NULL,
                token bigint NOT NULL,
                recorded_at bigint NOT NULL,
                author text
            )
            """,
        ]
    }

    // MARK: The header

    var selectHeader: String {
        """
        SELECT base, count, current_index, clean_index, undo_limit, revision, next_node, keeps_branches
        FROM \(header) WHERE singleton = 1
        """
    }

    /// The header, locked until the transaction ends: every history writer takes it first, so
    /// writers queue here rather than each doing its work and all but one failing at commit.
    var selectHeaderForUpdate: String {
        selectHeader + " FOR UPDATE"
    }

    var selectRevision: String { "SELECT revision FROM \(header) WHERE singleton = 1" }

    var updateHeader: String {
        """
        UPDATE \(header) SET base = $1, count = $2, current_index = $3, clean_index = $4, undo_limit = $5,
            next_node = $6, keeps_branches = $7, revision = revision + 1
        WHERE singleton = 1 RETURNING revision
        """
    }

    /// ``updateHeader`` and, in the same round trip, the NOTIFY of the revision it took
    /// (`$8`: the channel), delivered when the transaction commits.
    var updateHeaderAndNotify: String {
        """
        WITH updated AS (
            UPDATE \(header) SET base = $1, count = $2, current_index = $3, clean_index = $4, undo_limit = $5,
                next_node = $6, keeps_branches = $7, revision = revision + 1
            WHERE singleton = 1 RETURNING revision
        )
        SELECT revision, pg_notify($8, revision::text) FROM updated
        """
    }

    // MARK: Entries

    /// Every column of an entry row but its payload, then its sequence, for every entry of a
    /// range, in order: a history's records in one statement.
    var selectEntries: String {
        """
        SELECT kind, version, text, action_text, merge_id, significant, token, recorded_at, author, node, sequence
        FROM \(entry) WHERE sequence >= $1 AND sequence < $2 ORDER BY sequence
        """
    }

    /// ``selectEntries``' columns, then the payload of the entry with sequence `$3` alone (`NULL`
    /// for the others and when `$3` is `NULL`): an entry and its neighbours in one statement.
    var selectEntriesAround: String {
        """
        SELECT kind, version, text, action_text, merge_id, significant, token, recorded_at, author, node, sequence,
            CASE WHEN sequence = $3 THEN payload END
        FROM \(entry) WHERE sequence >= $1 AND sequence < $2 ORDER BY sequence
        """
    }

    /// The two entries an undo (`below`) or a redo (above) reaches first, in
    /// ``selectEntriesAround``' columns, with the payload of the one it runs first only (the other
    /// is the next call's record): where they are is read from the header in the statement itself,
    /// so it travels with the header's lock, before the client knows the index.
    func selectEntriesNextTo(currentIndexBelow below: Bool) -> String {
        below
            ? """
            SELECT kind, version, text, action_text, merge_id, significant, token, recorded_at, author, node, sequence,
                CASE WHEN sequence = top.first + 1 THEN payload END
            FROM \(entry), (SELECT base + current_index - 2 AS first FROM \(header) WHERE singleton = 1) top
            WHERE sequence >= top.first AND sequence < top.first + 2
            ORDER BY sequence
            """
            : """
            SELECT kind, version, text, action_text, merge_id, significant, token, recorded_at, author, node, sequence,
                CASE WHEN sequence = next.first THEN payload END
            FROM \(entry), (SELECT base + current_index AS first FROM \(header) WHERE singleton = 1) next
            WHERE sequence >= next.first AND sequence < next.first + 2
            ORDER BY sequence
            """
    }

    var selectPayload: String { "SELECT payload FROM \(entry) WHERE sequence = $1" }

    var insertEntry: String {
        """
        INSERT INTO \(entry)
            (sequence, kind, version, text, action_text, merge_id, significant, payload, token, recorded_at, author,
             node)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        """
    }

    var updateEntry: String {
        """
        UPDATE \(entry) SET kind = $2, version = $3, text = $4, action_text = $5, merge_id = $6, significant = $7,
            payload = $8
        WHERE sequence = $1
        """
    }

    var deleteFrom: String { "DELETE FROM \(entry) WHERE sequence >= $1" }
    var deleteBefore: String { "DELETE FROM \(entry) WHERE sequence < $1" }
    var deleteOne: String { "DELETE FROM \(entry) WHERE sequence = $1" }
    /// Two passes through negative numbers: shifting in place could collide on the primary key.
    var shiftDownStart: String { "UPDATE \(entry) SET sequence = -sequence WHERE sequence > $1" }
    var shiftDownFinish: String { "UPDATE \(entry) SET sequence = -sequence - 1 WHERE sequence < 0" }

    /// The rows about to be removed, for their discard actions.
    var selectRange: String {
        "SELECT sequence, kind, version, payload FROM \(entry) WHERE sequence >= $1 AND sequence < $2 ORDER BY sequence"
    }

    /// The entries of a range that begin a step: the first, and every significant one after it.
    var countStepStarts: String {
        """
        SELECT count(*) FROM \(entry)
        WHERE sequence >= $1 AND sequence < $2 AND (sequence = $1 OR significant)
        """
    }
}
#endif
