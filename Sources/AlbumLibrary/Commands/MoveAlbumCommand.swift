public import Foundation

/// Moves an album from one position to another; undo moves it back.
public struct MoveAlbumCommand: Codable, Sendable, Hashable {
    /// The album's position before the move (1-based).
    public var from: Int
    /// Its position after the move.
    public var to: Int
    /// The moved album's title, known once the command has run (for the history's text).
    public var title: String?
    /// The moved album's id, recorded by the first ``redo(on:)`` (`nil` in steps recorded before
    /// albums kept it): what a selective undo checks a later move against.
    public var albumID: UUID?

    /// Creates the command.
    ///
    /// - Parameters:
    ///   - from: From 1 to the number of albums.
    ///   - to: From 1 to the number of albums.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// "Move “Title”".
    public var text: String {
        title.map { "Move “\($0)”" } ?? "Move album \(from)"
    }

    /// Moves the album.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when a position is out of range.
    public mutating func redo(on library: LibraryAPI) throws {
        let moved = try library.moveAlbum(from: from, to: to)
        title = moved.title
        albumID = moved.id
    }

    /// Moves the album back.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when a position is out of range.
    public mutating func undo(on library: LibraryAPI) throws {
        try library.moveAlbum(from: to, to: from)
    }
}
