import Foundation

/// What one step of the album library touched: for each album, which of its parts (its existence,
/// a field, its place in the order). Two steps commute when their footprints do not overlap, so
/// an older step can be undone on its own ("undo mine") exactly when its footprint overlaps none
/// of the steps after it (Prakash and Knister's rule for selective undo).
///
/// Positions are not a part: an add or a delete elsewhere moves an album's position but not the
/// album, and a selective undo rebases the positions it needs (``shifted(_:)``).
struct AlbumFootprint: Hashable {
    /// A part of an album a step can change.
    enum Part: Hashable, Comparable {
        case existence, title, artist, genre, year, cover, image, order

        /// How a message names it: "the year".
        var name: String {
            switch self {
            case .existence: "the album"
            case .title: "the title"
            case .artist: "the artist"
            case .genre: "the genre"
            case .year: "the year"
            case .cover: "the cover"
            case .image: "the cover image"
            case .order: "the place"
            }
        }

        static let all: Set<Part> = [.existence, .title, .artist, .genre, .year, .cover, .image, .order]
    }

    /// The parts touched, by album.
    var albums: [UUID: Set<Part>] = [:]
    /// Whether the step may touch any album (an import, a replacement, a step recorded without
    /// the values that would say which album): it overlaps every other step.
    var touchesEverything = false

    static let everything = AlbumFootprint(touchesEverything: true)

    /// The parts both touch, `nil` when they commute.
    func overlap(with other: AlbumFootprint) -> Set<Part>? {
        if touchesEverything || other.touchesEverything { return Part.all }
        for (id, parts) in albums {
            if let others = other.albums[id], !parts.isDisjoint(with: others) { return parts.intersection(others) }
        }
        return nil
    }

    /// The parts an edit changes.
    static func parts(of changes: AlbumChanges) -> Set<Part> {
        var parts: Set<Part> = []
        if changes.title != nil { parts.insert(.title) }
        if changes.artist != nil { parts.insert(.artist) }
        if changes.genre != nil { parts.insert(.genre) }
        if changes.year != nil || changes.removesYear { parts.insert(.year) }
        if changes.coverURL != nil || changes.removesCoverURL { parts.insert(.cover) }
        return parts
    }
}
