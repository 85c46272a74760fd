/// Changes fields of the album at a position; undo restores the previous values.
public struct EditAlbumCommand: Codable, Sendable, Hashable {
    /// The album's position (1-based).
    public var position: Int
    /// The fields to change.
    public var changes: AlbumChanges
    /// The album before the edit, known once the command has run.
    public var before: Album?

    /// Creates the command.
    ///
    /// - Parameters:
    ///   - position: From 1 to the number of albums.
    ///   - changes: The fields to change; at least one.
    public init(position: Int, changes: AlbumChanges) {
        self.position = position
        self.changes = changes
    }

    /// "Edit “Title”" (the title before the edit).
    public var text: String {
        before.map { "Edit “\($0.title)”" } ?? "Edit album \(position)"
    }

    /// Applies the changes, remembering the old values.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the position is out of range or a changed field is invalid.
    public mutating func redo(on library: LibraryAPI) throws {
        let current = try library.album(at: position)
        if let before {
            try LibraryAPI.expect(current.id == before.id, "redo Edit")
        }
        let edited = try current.applying(changes)
        try library.replaceAlbum(at: position, with: edited)
        before = current
    }

    /// Restores the album as it was before the edit.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the command never ran or the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        guard let before else {
            throw LibraryError(.storage, "cannot undo Edit: the previous values were not recorded")
        }
        let current = try library.album(at: position)
        try LibraryAPI.expect(current.id == before.id, "undo Edit")
        try library.replaceAlbum(at: position, with: before)
    }
}
