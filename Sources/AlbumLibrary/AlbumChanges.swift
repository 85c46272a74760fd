public import Foundation

/// The fields an edit changes; `nil` leaves a field as it is.
///
/// ```swift
/// var changes = AlbumChanges()
/// changes.year = 1993
/// let edited = try album.applying(changes)
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

    /// Creates a set of changes.
    ///
    /// - Parameters:
    ///   - title: A new title.
    ///   - artist: A new artist.
    ///   - genre: A new genre.
    ///   - year: A new year.
    ///   - coverURL: A new cover location.
    public init(
        title: String? = nil,
        artist: String? = nil,
        genre: String? = nil,
        year: Int? = nil,
        coverURL: URL? = nil
    ) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
    }

    /// Whether nothing would change.
    public var isEmpty: Bool {
        title == nil && artist == nil && genre == nil && year == nil && coverURL == nil
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
        if let year = changes.year { album.year = year }
        if let coverURL = changes.coverURL { album.coverURL = coverURL }
        return try album.validated()
    }
}
