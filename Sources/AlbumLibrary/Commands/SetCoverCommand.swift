public import Foundation

/// Sets or removes the cover image stored for one album; undo puts back the image it had before
/// (or none).
///
/// The images are not in the command: the image being set, and afterwards the one it replaced,
/// are kept in the library's `kept_cover` table under ``slot``, stored in the transaction that
/// pushes the command. Redo and undo both exchange the album's shown image with the kept one, so
/// the history row stays a few hundred bytes whatever the image's size, and an undo in a later
/// process (or after a crash: the image and the step commit together) finds its image there.
public struct SetCoverCommand: Codable, Sendable, Hashable {
    /// The album whose cover changes.
    public var albumID: UUID
    /// Its title when the change was made (for the history's text).
    public var title: String
    /// Where the image not shown is kept: the new one before redo, the replaced one after.
    public var slot: UUID
    /// The image set, or `nil` for a removal.
    public var image: CoverSummary?
    /// The image shown before the change, or `nil` when there was none.
    public var previous: CoverSummary?

    /// Creates the command; ``LibrarySession/setCover(_:to:)`` makes it after keeping the image.
    ///
    /// - Parameters:
    ///   - albumID: The album.
    ///   - title: Its title.
    ///   - slot: Where the new image is kept (none for a removal).
    ///   - image: The new image's summary, or `nil` for a removal.
    ///   - previous: The summary of the image shown now, or `nil`.
    public init(albumID: UUID, title: String, slot: UUID, image: CoverSummary?, previous: CoverSummary?) {
        self.albumID = albumID
        self.title = title
        self.slot = slot
        self.image = image
        self.previous = previous
    }

    /// "Set the cover of “Title”", "Remove the cover of “Title”".
    public var text: String {
        "\(image == nil ? "Remove" : "Set") the cover of “\(title)”"
    }

    /// Shows the new image (or none), keeping the one shown before.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the album is gone or shows another image than expected.
    public mutating func redo(on library: LibraryAPI) throws {
        try exchange(on: library, expecting: previous, showing: image, operation: "redo \(text)")
    }

    /// Shows the image shown before the change again (or none).
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the album is gone or shows another image than expected.
    public mutating func undo(on library: LibraryAPI) throws {
        try exchange(on: library, expecting: image, showing: previous, operation: "undo \(text)")
    }

    /// Swaps the shown and the kept image, checking both sides: a stored step never changes an
    /// album that no longer matches it.
    func exchange(
        on library: LibraryAPI, expecting shown: CoverSummary?, showing next: CoverSummary?, operation: String
    ) throws {
        try LibraryAPI.expect(try library.contains(albumID), operation)
        try LibraryAPI.expect(try library.coverSummary(of: albumID)?.hash == shown?.hash, operation)
        try library.swapCover(of: albumID, withKept: slot)
        try LibraryAPI.expect(try library.coverSummary(of: albumID)?.hash == next?.hash, operation)
    }
}
