import CommandStore
import Foundation
import SQLiteDatabase

extension LibraryError.Code {
    /// The library file is damaged (a page SQLite cannot read) or inconsistent (tables that do not
    /// match the schema it records, a search index in an unknown format). The operation changed
    /// nothing; the message says to restore the file from a backup or an export. The albums CLI
    /// exits 1 with it, as for every failed command.
    public static let damagedLibrary = LibraryError.Code(rawValue: "damaged-library")
}

extension LibraryError {
    /// What every damage message ends with: what a person can do about it.
    public static let damageRemedy =
        "restore it from a backup, or move it aside and import your last export (albums import FILE)"

    /// The library's error for a storage failure that means the library file is damaged or
    /// inconsistent, in the program's words; `nil` for any other error.
    ///
    /// SQLite reports such files in its own terms, which name neither the problem nor the remedy:
    /// `SQL logic error`, `unrecognized option: "content_vowid"` (a flipped bit in the search
    /// index's declaration), `table … has no column named …`, `no such column: …`,
    /// `invalid fts5 file format … - run 'rebuild'`. The library's statements are fixed and tested
    /// against the schema it writes, so an SQL error (`SQLITE_ERROR`) from one of them, on a file,
    /// means the file's tables are not the ones its recorded schema made. Damaged pages
    /// (`SQLITE_CORRUPT`, also from the search index) and the store's own findings
    /// (CommandStore's `corruptDatabase`: a failed integrity check, a lost history row, a
    /// migration that does not fit the tables) are said the same way. Every such failure happens
    /// before a commit (the operation's transaction is rolled back), so nothing was changed.
    ///
    /// ```swift
    /// do {
    ///     try session.add(album)
    /// } catch {
    ///     print(LibraryError(damage: error)?.message ?? "\(error)")
    ///     // library.sqlite is damaged or inconsistent: its tables do not match the schema it records
    ///     // (SQL logic error); nothing was changed: restore it from a backup, …
    /// }
    /// ```
    ///
    /// - Parameter error: An error thrown while opening or using a library.
    /// - Returns: A ``Code/damagedLibrary`` error naming the file, SQLite's words in parentheses,
    ///   and ``damageRemedy``; or `nil`.
    public init?(damage error: any Error) {
        switch error {
        case let error as StoreError where error.code == .corruptDatabase:
            // The store's messages name the file and what was found; most say the file was not changed.
            let message = error.message
            if message.contains("restore") {
                self.init(.damagedLibrary, message)
            } else if message.contains("not changed") {
                self.init(.damagedLibrary, "\(message): \(Self.damageRemedy)")
            } else {
                self.init(.damagedLibrary, "\(message); nothing was changed: \(Self.damageRemedy)")
            }
        case let error as DatabaseError where error.path != nil:
            let path = error.path ?? ""
            switch error.resultCode.primaryResultCode {
            case .corrupt:
                // "<path> is damaged: database disk image is malformed" (Connection names the file).
                let message = error.message.hasPrefix(path) ? error.message : "\(path) is damaged: \(error.message)"
                self.init(.damagedLibrary, "\(message); nothing was changed: \(Self.damageRemedy)")
            case .error:
                self.init(
                    .damagedLibrary,
                    "\(path) is damaged or inconsistent: \(Self.mismatch(in: error.message)); nothing was changed: "
                        + Self.damageRemedy)
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// What an SQL error on the library's own statements says about the file.
    private static func mismatch(in message: String) -> String {
        // FTS5's "invalid fts5 file format (found 3, expected 4) - run 'rebuild'": its advice names a
        // statement a person cannot run through albums, and the search index is what is wrong.
        if message.contains("fts5") {
            let reason = message.components(separatedBy: " - run 'rebuild'").first ?? message
            return "its search index is in a form albums does not know (\(reason))"
        }
        return "its tables do not match the schema it records (\(message))"
    }
}
