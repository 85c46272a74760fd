public import Foundation

/// Appends a batch of albums as one step; undo removes them all.
///
/// The albums themselves are not in the command: ``LibrarySession/importAlbums(_:progress:)``
/// stages them in the library's `import_batch` table, in the same transaction as the push, and
/// the command names the batch. Redo moves the batch into the library, undo moves the albums
/// back into the batch. So the history row stays a few bytes whatever the import's size, and
/// opening the history next to a 100,000-album import reads no more than next to a delete.
///
/// All or nothing: the durable history runs ``redo(on:)`` inside one transaction, so a
/// failure part-way (an id already in the library) leaves the library as it was.
public struct ImportAlbumsCommand: Codable, Sendable, Hashable {
    /// The staged batch.
    public var batch: UUID
    /// How many albums it holds.
    public var count: Int
    /// The first album's title (for the history's text when there is only one).
    public var firstTitle: String
    /// The position of the first imported album, known once the command has run.
    public var firstPosition: Int?

    /// Creates the command for a staged batch.
    ///
    /// - Parameters:
    ///   - batch: The batch ``LibraryAPI/stageImport(_:progress:)`` returned.
    ///   - count: The number of albums in it.
    ///   - firstTitle: The first album's title.
    public init(batch: UUID, count: Int, firstTitle: String) {
        self.batch = batch
        self.count = count
        self.firstTitle = firstTitle
    }

    /// "Import 3 albums" (or "Import “Title”" for one).
    public var text: String {
        count == 1 ? "Import “\(firstTitle)”" : "Import \(count) albums"
    }

    /// Moves the staged albums to the end of the library.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` naming the first album whose id is already in the library, or
    ///   when the batch is missing.
    public mutating func redo(on library: LibraryAPI) throws {
        firstPosition = try library.count() + 1
        try library.unstageImport(batch, expectedCount: count)
    }

    /// Moves the imported albums back into their batch.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the command never ran or the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        guard let firstPosition else {
            throw LibraryError(.storage, "cannot undo Import: its position was not recorded")
        }
        try library.restageImport(batch, from: firstPosition, count: count)
    }
}
