#if PostgreSQL
import PostgreSQLDatabase

/// The SQL of a branching history's tree (schema version 2): the path stays the entry table, each
/// row with its node; the branches off it are rows of `<prefix>_branch`, each with its parent node
/// and `visit` (the revision at which it left the path: the largest among siblings is the branch a
/// redo follows), as in CommandStore's SQLite layout. Every look-up is by an index (node, or
/// parent and visit); only ``pathNodes`` and ``parkedNodes`` read a whole table.
extension HistoryStatements {
    /// Version 2: a node for every entry (migrated rows take sequence + 1), the number the next
    /// step takes and the branch choice in the header, and the branch table.
    var addBranches: [String] {
        [
            "ALTER TABLE \(entry) ADD COLUMN node bigint",
            "UPDATE \(entry) SET node = sequence + 1",
            "ALTER TABLE \(entry) ALTER COLUMN node SET NOT NULL",
            "CREATE UNIQUE INDEX \(entry)_node ON \(entry) (node)",
            """
            ALTER TABLE \(header) ADD COLUMN next_node bigint NOT NULL DEFAULT 1,
                ADD COLUMN keeps_branches boolean NOT NULL DEFAULT false
            """,
            "UPDATE \(header) SET next_node = coalesce((SELECT max(node) FROM \(entry)), 0) + 1",
            """
            CREATE TABLE \(branch) (
                node bigint PRIMARY KEY,
                parent bigint NOT NULL,
                visit bigint NOT NULL,
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
            "CREATE INDEX \(branch)_parent ON \(branch) (parent, visit DESC, node DESC)",
        ]
    }

    /// The columns a row keeps when it moves between the tables (spelled out: never built).
    private var movedColumns: String {
        "kind, version, text, action_text, merge_id, significant, payload, token, recorded_at, author"
    }

    var sequenceOfNode: String { "SELECT sequence FROM \(entry) WHERE node = $1" }

    /// Parks the path from sequence `$3` on: each row's parent is the node of the row before it
    /// (the first one's: `$1`), every one with the visit `$2`.
    var park: String {
        """
        INSERT INTO \(branch) (node, parent, visit, \(movedColumns))
        SELECT node, lag(node, 1, $1::bigint) OVER (ORDER BY sequence), $2::bigint, \(movedColumns)
        FROM \(entry) WHERE sequence >= $3
        """
    }

    /// Brings parked node `$2` onto the path at sequence `$1`.
    var unpark: String {
        """
        INSERT INTO \(entry) (sequence, node, \(movedColumns))
        SELECT $1::bigint, node, \(movedColumns) FROM \(branch) WHERE node = $2
        """
    }

    var deleteParked: String { "DELETE FROM \(branch) WHERE node = $1" }
    var parkedParent: String { "SELECT parent FROM \(branch) WHERE node = $1" }
    var latestChild: String {
        "SELECT node FROM \(branch) WHERE parent = $1 ORDER BY visit DESC, node DESC LIMIT 1"
    }
    var countParked: String { "SELECT count(*) FROM \(branch)" }
    var oldestParked: String { "SELECT min(node) FROM \(branch)" }
    var adopt: String { "UPDATE \(branch) SET parent = $1 WHERE parent = $2" }

    /// Node `$1` and every node below it.
    private var belowNode: String {
        """
        WITH RECURSIVE below(node) AS (
            SELECT $1::bigint UNION ALL
            SELECT b.node FROM \(branch) b JOIN below ON b.parent = below.node
        )
        """
    }

    /// The branches hanging off the root or off path rows below sequence `$1` (about to be trimmed).
    private var hanging: String {
        """
        WITH RECURSIVE below(node) AS (
            SELECT node FROM \(branch) WHERE parent = 0
                OR parent IN (SELECT node FROM \(entry) WHERE sequence < $1)
            UNION ALL
            SELECT b.node FROM \(branch) b JOIN below ON b.parent = below.node
        )
        """
    }

    var removeBranch: String { belowNode + " DELETE FROM \(branch) WHERE node IN (SELECT node FROM below)" }
    var removeHanging: String { hanging + " DELETE FROM \(branch) WHERE node IN (SELECT node FROM below)" }
    var removeAllParked: String { "DELETE FROM \(branch)" }

    /// The rows the removals above delete, for their discard actions (node, kind, version, payload).
    var branchRows: String {
        belowNode + " SELECT node, kind, version, payload FROM \(branch) WHERE node IN (SELECT node FROM below)"
    }
    var hangingRows: String {
        hanging + " SELECT node, kind, version, payload FROM \(branch) WHERE node IN (SELECT node FROM below)"
    }
    var allParkedRows: String { "SELECT node, kind, version, payload FROM \(branch)" }

    var neighborBefore: String {
        "SELECT greatest((SELECT max(node) FROM \(entry) WHERE node < $1), (SELECT max(node) FROM \(branch) WHERE node < $1))"
    }
    var neighborAfter: String {
        "SELECT least((SELECT min(node) FROM \(entry) WHERE node > $1), (SELECT min(node) FROM \(branch) WHERE node > $1))"
    }
    /// The newest node recorded at or before `$1` (node numbers follow time).
    var latestAtOrBefore: String {
        """
        SELECT greatest((SELECT max(node) FROM \(entry) WHERE recorded_at <= $1),
                        (SELECT max(node) FROM \(branch) WHERE recorded_at <= $1))
        """
    }

    var pathNodes: String {
        """
        SELECT node, lag(node, 1, 0::bigint) OVER (ORDER BY sequence), text, action_text, recorded_at, author
        FROM \(entry) ORDER BY sequence
        """
    }
    var parkedNodes: String { "SELECT node, parent, text, action_text, recorded_at, author FROM \(branch)" }

    /// The significant rows a redo at the path's end (node `$1`) would bring onto the path,
    /// following the latest visited child each time; at most `$2` rows, so that a damaged table
    /// whose parents form a cycle still ends.
    var followedSignificant: String {
        """
        WITH RECURSIVE followed(node, significant, depth) AS (
            SELECT c.node, c.significant, 1 FROM (
                SELECT node, significant FROM \(branch) WHERE parent = $1 ORDER BY visit DESC, node DESC LIMIT 1
            ) c
            UNION ALL
            SELECT n.node, n.significant, followed.depth + 1 FROM followed CROSS JOIN LATERAL (
                SELECT c.node, c.significant FROM \(branch) c WHERE c.parent = followed.node
                ORDER BY c.visit DESC, c.node DESC LIMIT 1
            ) n
            WHERE followed.depth < $2
        )
        SELECT count(*) FILTER (WHERE significant) FROM followed
        """
    }
}
#endif
