public import Foundation

/// Replaces every album of the library with a batch of albums, as one step; undo puts the old
/// albums back.
///
/// ``LibrarySession/replaceAlbums(with:progress:)`` stages the new albums as an import is staged
/// (the `import_batch` table) in the transaction that pushes the command. Redo sets the library's
/// albums aside under the same batch id (the `replaced_album` table) and moves the staged ones in;
/// undo does the reverse. Either way the history row is a few bytes, whatever the library's size,
/// and ids may repeat between the old albums and the new (restoring an export of this library).
public struct ReplaceLibraryCommand: Codable, Sendable, Hashable {
    /// The staged batch, and the id the replaced albums are set aside under.
    public var batch: UUID
    /// How many albums replace the library's.
    public var count: Int
    /// How many albums the library held before, known once the command has run.
    public var replacedCount: Int?

    /// Creates the command for a staged batch.
    ///
    /// - Parameters:
    ///   - batch: The batch ``LibraryAPI/stageImport(_:progress:)`` returned.
    ///   - count: The number of albums in it.
    public init(batch: UUID, count: Int) {
        self.batch = batch
        self.count = count
    }

    /// "Replace the library with 6 albums".
    public var text: String {
        "Replace the library with \(count) album\(count == 1 ? "" : "s")"
    }

    /// Sets the library's albums aside and moves the staged ones in.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the batch is missing or incomplete.
    public mutating func redo(on library: LibraryAPI) throws {
        replacedCount = try library.setAsideAlbums(batch)
        try library.unstageImport(batch, expectedCount: count)
    }

    /// Moves the new albums back into their batch and brings the old ones back.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the command never ran or the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        guard let replacedCount else {
            throw LibraryError(.storage, "cannot undo Replace: the replaced albums were not recorded")
        }
        try LibraryAPI.expect(try library.count() == count, "undo Replace")
        try library.restageImport(batch, from: 1, count: count)
        try library.restoreAlbums(batch, expectedCount: replacedCount)
    }
}
