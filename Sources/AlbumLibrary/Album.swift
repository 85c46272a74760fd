public import Foundation

/// One album in the library: what the scroller shows and the details table lists.
///
/// An album's ``id`` is stable: it survives edits, moves, export and import, and is how
/// the durable history finds the album again in a later process. Its position in the
/// library is not part of the value; ``LibraryAPI`` keeps the order.
///
/// ```swift
/// let album = Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992)
/// ```
public struct Album: Codable, Sendable, Hashable, Identifiable {
    /// The album's stable identity.
    public var id: UUID
    /// The album's title; never empty.
    public var title: String
    /// The performing artist; never empty.
    public var artist: String
    /// The genre, or the empty string when unknown.
    public var genre: String
    /// The release year, when known.
    public var year: Int?
    /// Where the cover image lives, when known.
    public var coverURL: URL?

    /// Creates an album.
    ///
    /// - Parameters:
    ///   - id: The stable identity; a fresh one by default.
    ///   - title: The title.
    ///   - artist: The performing artist.
    ///   - genre: The genre; empty when unknown.
    ///   - year: The release year, if known.
    ///   - coverURL: The cover image's location, if known.
    public init(
        id: UUID = UUID(),
        title: String,
        artist: String,
        genre: String = "",
        year: Int? = nil,
        coverURL: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
    }

    /// The five classic albums a new library starts with, each with a fresh identity.
    ///
    /// - Returns: "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun"
    ///   and "American Pie", in that order.
    public static func defaults() -> [Album] {
        [
            Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992),
            Album(title: "It's My Life", artist: "No Doubt", genre: "Pop", year: 2003),
            Album(title: "Nothing Like The Sun", artist: "Sting", genre: "Pop", year: 1999),
            Album(title: "Staring at the Sun", artist: "U2", genre: "Pop", year: 2000),
            Album(title: "American Pie", artist: "Madonna", genre: "Pop", year: 2000),
        ]
    }

    // The file format's names (see ``AlbumFile``): `cover`, not `coverURL`.
    private enum CodingKeys: String, CodingKey {
        case id, title, artist, genre, year
        case coverURL = "cover"
    }

    /// The years an album may carry.
    public static let validYears: ClosedRange<Int> = 1...9999

    /// The longest title, artist or genre accepted, in characters.
    public static let maximumFieldLength = 1000

    /// The longest cover URL accepted, in bytes of UTF-8 (browsers handle URLs of a few kilobytes;
    /// a longer one is data, not a location).
    public static let maximumCoverURLLength = 8192
}
