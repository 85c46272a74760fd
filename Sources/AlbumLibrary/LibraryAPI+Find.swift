import Foundation

extension LibraryAPI {
    /// The album a reference names, and its position, as committed now (inside a change, as its
    /// transaction sees it).
    ///
    /// - Parameter reference: A position, an id or an exact title.
    /// - Returns: The position and the album.
    /// - Throws: ``LibraryError`` with ``LibraryError/Code/positionOutOfRange``,
    ///   ``LibraryError/Code/albumNotFound``, or ``LibraryError/Code/ambiguousTitle`` listing the
    ///   candidates, so that nothing ever changes an album a title did not name alone.
    public func find(_ reference: AlbumReference) throws -> (position: Int, album: Album) {
        switch reference {
        case .position(let position):
            return (position, try album(at: position))
        case .id(let id):
            guard let position = try position(of: id) else {
                throw LibraryError(.albumNotFound, "no album has the id \(id.uuidString)")
            }
            return (position, try album(at: position))
        case .title(let title):
            let found = try albums(titled: title)
            guard let first = found.first else {
                // Titles match exactly; say so when the name's spaces are all that differ.
                let trimmed = title.trimmingCharacters(in: .whitespaces)
                let near = trimmed != title && !trimmed.isEmpty ? try albums(titled: trimmed).first : nil
                let hint = near.map {
                    " (position \($0.position) is titled “\($0.album.title)”: titles match exactly, spaces too)"
                }
                throw LibraryError(
                    .albumNotFound, "no album is titled “\(LibraryError.excerpt(of: title))”" + (hint ?? ""))
            }
            guard found.count == 1 else {
                let shown = found.prefix(5).map { "\($0.position) (id \($0.album.id.uuidString))" }
                let more = found.count > 5 ? ", and \(found.count - 5) more" : ""
                throw LibraryError(
                    .ambiguousTitle,
                    "\(found.count) albums are titled “\(title)”: positions "
                        + shown.joined(separator: ", ") + more + "; name one by position or id")
            }
            return first
        }
    }
}
