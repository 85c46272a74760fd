import SQLiteDatabase

extension LibraryFile {
    /// Schema version 4: cover images stored in the library.
    ///
    /// `cover_image` holds each image once (its bytes last, so a summary is read without the
    /// blob's overflow pages); `album_cover` says which image an album shows; `kept_cover` holds
    /// the images history steps keep for their undo or redo (a replaced cover, a deleted album's,
    /// the image a removal took away), under the step's slot. Every image row has exactly one
    /// owner, in one of the two tables: a change moves the owner, never the bytes.
    static let coversMigration = Migration(
        version: 4, name: "cover images",
        sql: """
            CREATE TABLE cover_image (
                id INTEGER PRIMARY KEY,
                media_type TEXT NOT NULL,
                sha256 TEXT NOT NULL,
                byte_count INTEGER NOT NULL,
                bytes BLOB NOT NULL
            );
            CREATE TABLE album_cover (
                album_id TEXT PRIMARY KEY NOT NULL,
                image INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE kept_cover (
                slot TEXT NOT NULL,
                album_id TEXT NOT NULL,
                image INTEGER NOT NULL,
                PRIMARY KEY (slot, album_id)
            ) WITHOUT ROWID;
            """)
}
