import SQLiteDatabase

extension LibraryFile {
    /// Schema version 3: the search column and its full-text index, the title index, and the
    /// albums a library replacement set aside.
    ///
    /// `album_search` is an FTS5 index with `album` as its content table, kept in step by triggers,
    /// so every write path (insert, the import's `INSERT … SELECT`, delete, edit) updates it inside
    /// the write's own transaction. Existing albums get their search text here, once.
    static let searchMigration = Migration(version: 3, name: "search and replace") { db in
        try db.execute(
            """
            ALTER TABLE album ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
            ALTER TABLE import_batch ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
            CREATE INDEX album_by_title ON album (title);
            CREATE TABLE replaced_album (
                batch TEXT NOT NULL,
                seq INTEGER NOT NULL,
                id TEXT NOT NULL,
                title TEXT NOT NULL,
                artist TEXT NOT NULL,
                genre TEXT NOT NULL DEFAULT '',
                year INTEGER,
                cover TEXT,
                search_text TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (batch, seq)
            ) WITHOUT ROWID;
            """
        )
        for row in try db.fetchAll("SELECT rowid, title, artist, genre FROM album") {
            try db.execute(
                "UPDATE album SET search_text = ? WHERE rowid = ?",
                [SearchText.of(try fields(row)), try row.decode(Int64.self, at: 0)])
        }
        for row in try db.fetchAll("SELECT batch, seq, title, artist, genre FROM import_batch") {
            try db.execute(
                "UPDATE import_batch SET search_text = ? WHERE batch = ? AND seq = ?",
                [
                    SearchText.of(try fields(row, from: 2)), try row.decode(String.self, at: 0),
                    try row.decode(Int.self, at: 1),
                ])
        }
        try db.execute(
            """
            CREATE VIRTUAL TABLE album_search USING fts5(
                search_text, content='album', content_rowid='rowid', tokenize='trigram'
            );
            CREATE TRIGGER album_search_insert AFTER INSERT ON album BEGIN
                INSERT INTO album_search (rowid, search_text) VALUES (new.rowid, new.search_text);
            END;
            CREATE TRIGGER album_search_delete AFTER DELETE ON album BEGIN
                INSERT INTO album_search (album_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
            END;
            CREATE TRIGGER album_search_update AFTER UPDATE OF search_text ON album BEGIN
                INSERT INTO album_search (album_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
                INSERT INTO album_search (rowid, search_text) VALUES (new.rowid, new.search_text);
            END;
            INSERT INTO album_search (album_search) VALUES ('rebuild');
            """
        )
    }

    /// The title, artist and genre read from `row`, starting at column `first`.
    private static func fields(_ row: Row, from first: Int = 1) throws -> Album {
        Album(
            title: try row.decode(String.self, at: first), artist: try row.decode(String.self, at: first + 1),
            genre: try row.decode(String.self, at: first + 2))
    }
}
