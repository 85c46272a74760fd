import SQLiteDatabase

extension LibraryFile {
    /// Schema version 5: the albums a bulk step keeps for its undo and redo (`bulk_album`).
    ///
    /// A bulk delete, edit or move (``BulkChangeCommand``) copies the albums it changes, as they
    /// were, with their positions, into this table under its batch id, in the transaction that
    /// pushes it; the history row then names the batch and a count, a few bytes whatever the number
    /// of albums, and undo puts the rows back with one `INSERT … SELECT` (a delete, a move) or one
    /// `UPDATE … FROM` (an edit). The rows stay while the step is in the history, done or undone,
    /// and go when it leaves it (the registry's discard action). Steps recorded before this version
    /// keep their albums in the history row and undo from there.
    static let bulkStagingMigration = Migration(
        version: 5, name: "bulk steps' albums",
        sql: """
            CREATE TABLE bulk_album (
                batch TEXT NOT NULL,
                seq INTEGER NOT NULL,
                position INTEGER NOT NULL,
                id TEXT NOT NULL,
                title TEXT NOT NULL,
                artist TEXT NOT NULL,
                genre TEXT NOT NULL DEFAULT '',
                year INTEGER,
                cover TEXT,
                search_text TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (batch, seq)
            ) WITHOUT ROWID;
            """)
}
