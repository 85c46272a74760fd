public import Foundation

/// The fields an edit changes; `nil` leaves a field as it is.
///
/// ```swift
/// var changes = AlbumChanges()
/// changes.year = 1993
/// let edited = try album.applying(changes)
/// ```
///
/// The year and the cover are optional fields, so an edit can also remove them:
///
/// ```swift
/// var changes = AlbumChanges()
/// changes.removesYear = true  // the album then has no year
/// ```
public struct AlbumChanges: Codable, Sendable, Hashable {
    /// A new title, if changing.
    public var title: String?
    /// A new artist, if changing.
    public var artist: String?
    /// A new genre, if changing (the empty string clears it).
    public var genre: String?
    /// A new year, if changing.
    public var year: Int?
    /// A new cover location, if changing.
    public var coverURL: URL?
    /// Whether the edit removes the year (it then ignores ``year``).
    public var removesYear: Bool
    /// Whether the edit removes the cover location (it then ignores ``coverURL``).
    public var removesCoverURL: Bool

    /// Creates a set of changes.
    ///
    /// - Parameters:
    ///   - title: A new title.
    ///   - artist: A new artist.
    ///   - genre: A new genre.
    ///   - year: A new year.
    ///   - coverURL: A new cover location.
    ///   - removesYear: Whether to remove the year instead.
    ///   - removesCoverURL: Whether to remove the cover location instead.
    public init(
        title: String? = nil,
        artist: String? = nil,
        genre: String? = nil,
        year: Int? = nil,
        coverURL: URL? = nil,
        removesYear: Bool = false,
        removesCoverURL: Bool = false
    ) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
        self.removesYear = removesYear
        self.removesCoverURL = removesCoverURL
    }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && artist == nil && genre == nil && year == nil && coverURL == nil && !removesYear
            && !removesCoverURL
    }

    private enum CodingKeys: String, CodingKey {
        case title, artist, genre, year, coverURL, removesYear, removesCoverURL
    }

    /// Decodes changes; the removals are optional keys (histories written before them have none).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: A decoding error for a field of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        artist = try container.decodeIfPresent(String.self, forKey: .artist)
        genre = try container.decodeIfPresent(String.self, forKey: .genre)
        year = try container.decodeIfPresent(Int.self, forKey: .year)
        coverURL = try container.decodeIfPresent(URL.self, forKey: .coverURL)
        removesYear = try container.decodeIfPresent(Bool.self, forKey: .removesYear) ?? false
        removesCoverURL = try container.decodeIfPresent(Bool.self, forKey: .removesCoverURL) ?? false
    }

    /// Encodes the fields that change; a removal only when there is one, so an edit without one
    /// is stored as before removals existed.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An encoding error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(artist, forKey: .artist)
        try container.encodeIfPresent(genre, forKey: .genre)
        try container.encodeIfPresent(year, forKey: .year)
        try container.encodeIfPresent(coverURL, forKey: .coverURL)
        if removesYear { try container.encode(true, forKey: .removesYear) }
        if removesCoverURL { try container.encode(true, forKey: .removesCoverURL) }
    }
}

extension AlbumChanges {
    /// These changes less the fields that `edited` (`album` with them applied) has as `album`
    /// does: what the edit really changes.
    func keeping(onlyWhatDiffersBetween album: Album, and edited: Album) -> AlbumChanges {
        var kept = self
        if edited.title == album.title { kept.title = nil }
        if edited.artist == album.artist { kept.artist = nil }
        if edited.genre == album.genre { kept.genre = nil }
        if edited.year == album.year {
            kept.year = nil
            kept.removesYear = false
        }
        if edited.coverURL == album.coverURL {
            kept.coverURL = nil
            kept.removesCoverURL = false
        }
        return kept
    }
}

extension Album {
    /// Returns this album with the changes applied and every field checked.
    ///
    /// - Parameter changes: The fields to change.
    /// - Returns: The edited album; its ``id`` is unchanged.
    /// - Throws: ``LibraryError/Code/invalidValue`` naming the first field at fault.
    public func applying(_ changes: AlbumChanges) throws(LibraryError) -> Album {
        var album = self
        if let title = changes.title { album.title = title }
        if let artist = changes.artist { album.artist = artist }
        if let genre = changes.genre { album.genre = genre }
        if changes.removesYear {
            album.year = nil
        } else if let year = changes.year {
            album.year = year
        }
        if changes.removesCoverURL {
            album.coverURL = nil
        } else if let coverURL = changes.coverURL {
            album.coverURL = coverURL
        }
        return try album.validated()
    }
}
