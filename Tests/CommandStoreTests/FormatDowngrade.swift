/// SQL that turns a store file of today's format back into format 6 (no authors) or 5 (no tree), so that the
/// migration tests can start from the older formats they test.
enum FormatDowngrade {
    /// Format 6: no authors (the node and author columns' order aside, which no query depends on).
    static let toFormat6 = """
        ALTER TABLE commandstore_history_entry DROP COLUMN author;
        ALTER TABLE commandstore_history_branch DROP COLUMN author;
        UPDATE commandstore_schema SET version = 6 WHERE identifier = 'commandstore';
        """

    static let toFormat5 = """
        ALTER TABLE commandstore_history_entry DROP COLUMN author;
        DROP INDEX commandstore_history_entry_node;
        ALTER TABLE commandstore_history_entry DROP COLUMN node;
        ALTER TABLE commandstore_history_header DROP COLUMN next_node;
        ALTER TABLE commandstore_history_header DROP COLUMN keeps_branches;
        DROP TABLE commandstore_history_branch;
        UPDATE commandstore_schema SET version = 5 WHERE identifier = 'commandstore';
        """
}
