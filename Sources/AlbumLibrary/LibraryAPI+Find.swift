import Foundation

extension LibraryAPI {
    /// The album a reference names, and its position, as committed now (inside a change, as its
    /// transaction sees it).
    ///
    /// A title names the one album with exactly that title; when none has it, the one album whose
    /// title matches it with case and accents aside ("blue train" names “Blue Train”, "bjork"
    /// “Björk”). When several match, on either rule, nothing is chosen: the refusal lists them.
    /// When none does, the refusal suggests up to three titles a few letters away.
    ///
    /// - Parameter reference: A position, an id or a title.
    /// - Returns: The position and the album.
    /// - Throws: ``LibraryError`` with ``LibraryError/Code/positionOutOfRange``,
    ///   ``LibraryError/Code/albumNotFound`` (with the suggestions), or
    ///   ``LibraryError/Code/ambiguousTitle`` listing the candidates, so that nothing ever changes
    ///   an album a title did not name alone.
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
            let exact = try albums(titled: title)
            if exact.count > 1 { throw Self.ambiguous(title, exact, folded: false) }
            if let found = exact.first { return found }
            let folded = try albums(titledLike: title)
            if folded.count > 1 { throw Self.ambiguous(title, folded, folded: true) }
            if let found = folded.first { return found }
            let near = try albums(titledNear: title)
            let suggestion =
                near.isEmpty
                ? ""
                : "; did you mean "
                    + Self.alternatives(
                        near.map { "“\(LibraryError.excerpt(of: $0.album.title))” (position \($0.position))" })
                    + "?"
            throw LibraryError(
                .albumNotFound, "no album is titled “\(LibraryError.excerpt(of: title))”" + suggestion)
        }
    }

    /// The refusal of a title several albums match: the first five, by position and id.
    private static func ambiguous(
        _ title: String, _ found: [(position: Int, album: Album)], folded: Bool
    ) -> LibraryError {
        let shown = found.prefix(5).map { "\($0.position) (id \($0.album.id.uuidString))" }
        let more = found.count > 5 ? ", and \(found.count - 5) more" : ""
        let rule = folded ? " like “\(title)” (case and accents aside)" : " “\(title)”"
        return LibraryError(
            .ambiguousTitle,
            "\(found.count) albums are titled\(rule): positions " + shown.joined(separator: ", ") + more
                + "; name one by position or id")
    }

    /// “a”, “a or b”, “a, b or c”.
    private static func alternatives(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }
}
