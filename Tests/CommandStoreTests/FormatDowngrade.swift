/// SQL that turns a store file of today's format back into format 5 (no tree), so that the
/// migration tests can start from the older formats they test.
enum FormatDowngrade {
    static let toFormat5 = """
        DROP INDEX commandstore_history_entry_node;
        ALTER TABLE commandstore_history_entry DROP COLUMN node;
        ALTER TABLE commandstore_history_header DROP COLUMN next_node;
        ALTER TABLE commandstore_history_header DROP COLUMN keeps_branches;
        DROP TABLE commandstore_history_branch;
        UPDATE commandstore_schema SET version = 5 WHERE identifier = 'commandstore';
        """
}
