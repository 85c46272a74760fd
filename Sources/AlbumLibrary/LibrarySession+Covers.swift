import CommandStore
import Foundation

extension LibrarySession {
    /// Stores `image` as the cover of the album a reference names when the transaction runs, or
    /// removes its stored cover (`nil`), as one undoable step.
    ///
    /// The image and the step commit together. Setting the image the album shows already, or
    /// removing a cover it does not have, is refused and records nothing.
    ///
    /// - Parameters:
    ///   - album: The album: a position, an id or a title (``LibraryAPI/find(_:)``).
    ///   - image: The checked image (``CoverImage/init(bytes:)``), or `nil` to remove the cover.
    /// - Returns: The change as it ran (its ``AlbumChange/album`` is the album whose cover changed).
    /// - Throws: What ``delete(_:)`` throws, ``LibraryError/Code/nothingToChange`` as said, or a
    ///   storage error; nothing is then recorded.
    @discardableResult
    public func setCover(_ album: AlbumReference, to image: CoverImage?) throws -> AlbumChange<SetCoverCommand> {
        try change(album) { _, found in
            let current = try library.coverSummary(of: found.id)
            guard let image else {
                guard let current else {
                    throw LibraryError(.nothingToChange, "“\(found.title)” has no stored cover: nothing to remove")
                }
                return SetCoverCommand(
                    albumID: found.id, title: found.title, slot: UUID(), image: nil, previous: current)
            }
            guard current?.hash != image.hash else {
                throw LibraryError(.nothingToChange, "“\(found.title)” already has this cover: nothing to change")
            }
            let slot = UUID()
            try library.keep(image, in: slot, for: found.id)
            return SetCoverCommand(
                albumID: found.id, title: found.title, slot: slot,
                image: CoverSummary(mediaType: image.mediaType, hash: image.hash, byteCount: image.bytes.count),
                previous: current)
        }
    }
}
