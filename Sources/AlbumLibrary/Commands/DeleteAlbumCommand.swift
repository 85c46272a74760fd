public import Foundation

/// Deletes the album at a position; undo puts the same album back at the same position.
///
/// This is the seed's undoable Delete: the command remembers the deleted album and its
/// position (the seed's `addAlbum:atIndex:` invocation), in the durable history.
public struct DeleteAlbumCommand: Codable, Sendable, Hashable {
    /// The position deleted (1-based).
    public var position: Int
    /// The album deleted, known once the command has run.
    public var album: Album?
    /// Where the deleted album's stored cover image is kept for the undo (`nil` when it had none):
    /// the library's `kept_cover` table, under this slot.
    public var coverSlot: UUID?

    /// Creates the command.
    ///
    /// - Parameter position: From 1 to the number of albums.
    public init(position: Int) {
        self.position = position
    }

    /// "Delete “Title”".
    public var text: String {
        album.map { "Delete “\($0.title)”" } ?? "Delete album \(position)"
    }

    /// Deletes the album, remembering it.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the position is out of range.
    public mutating func redo(on library: LibraryAPI) throws {
        let removed = try library.removeAlbum(at: position)
        if let album {
            try LibraryAPI.expect(removed.id == album.id, "redo Delete")
        }
        album = removed
        if try library.hasCover(removed.id) {
            let slot = coverSlot ?? UUID()
            try library.swapCover(of: removed.id, withKept: slot)
            coverSlot = slot
        }
    }

    /// Puts the deleted album back at its position.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the command never ran or the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        guard let album else {
            throw LibraryError(.storage, "cannot undo Delete: the deleted album was not recorded")
        }
        try library.insert(album, at: position)
        if let coverSlot { try library.swapCover(of: album.id, withKept: coverSlot) }
    }
}
