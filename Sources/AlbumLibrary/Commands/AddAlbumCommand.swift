/// Adds an album at a position; undo removes it again.
///
/// Stored in the durable history as JSON, so `albums undo` in a later process can remove it.
public struct AddAlbumCommand: Codable, Sendable, Hashable {
    /// The album added.
    public var album: Album
    /// Where it goes (1-based); later albums move one place on.
    public var position: Int

    /// Creates the command.
    ///
    /// - Parameters:
    ///   - album: The album, already validated.
    ///   - position: From 1 to the number of albums plus one.
    public init(album: Album, position: Int) {
        self.album = album
        self.position = position
    }

    /// "Add “Title”".
    public var text: String { "Add “\(album.title)”" }

    /// Inserts the album.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the position is out of range.
    public mutating func redo(on library: LibraryAPI) throws {
        try library.insert(album, at: position)
    }

    /// Removes the album inserted by ``redo(on:)``, found by its id (an index look-up, where
    /// finding it by position walks the library up to it).
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the album is no longer in the library.
    public mutating func undo(on library: LibraryAPI) throws {
        try library.removeAlbum(withID: album.id, for: "undo Add")
    }
}
