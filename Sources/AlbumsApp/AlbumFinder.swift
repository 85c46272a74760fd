import AlbumLibrary
import Foundation

/// Finds the album a command line names, by position, id or exact title, and its position.
///
/// The command then works on that position, inside its own transaction; a title that names
/// several albums is refused with the candidates, so a script never changes the wrong one.
struct AlbumFinder {
    let library: LibraryAPI

    /// The album `selector` names, with its position.
    ///
    /// - Throws: ``LibraryError`` with ``LibraryError/Code/positionOutOfRange``,
    ///   ``LibraryError/Code/albumNotFound`` or ``LibraryError/Code/ambiguousTitle``.
    func find(_ selector: AlbumSelector) throws -> (position: Int, album: Album) {
        switch selector {
        case .position(let position):
            return (position, try library.album(at: position))
        case .id(let id):
            guard let position = try library.position(of: id) else {
                throw LibraryError(.albumNotFound, "no album has the id \(id.uuidString)")
            }
            return (position, try library.album(at: position))
        case .title(let title):
            let found = try library.albums(titled: title)
            guard let first = found.first else {
                throw LibraryError(.albumNotFound, "no album is titled \(DisplayText.quoted(title))")
            }
            guard found.count == 1 else {
                let shown = found.prefix(5).map { "\($0.position) (id \($0.album.id.uuidString))" }
                let more = found.count > 5 ? ", and \(found.count - 5) more" : ""
                throw LibraryError(
                    .ambiguousTitle,
                    "\(found.count) albums are titled \(DisplayText.quoted(title)): positions "
                        + shown.joined(separator: ", ") + more + "; name one by position or id")
            }
            return first
        }
    }
}
