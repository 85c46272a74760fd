/// What `albums stats` reports: the library's albums, artists, genres and years, its history's
/// length and its size on disk.
public struct LibraryStatistics: Sendable, Hashable, Encodable {
    /// The number of albums.
    public var albums: Int
    /// The number of different artists (exact names).
    public var artists: Int
    /// The number of different non-empty genres (exact names).
    public var genres: Int
    /// The earliest release year, or `nil` when no album has one.
    public var firstYear: Int?
    /// The latest release year, or `nil` when no album has one.
    public var lastYear: Int?
    /// The number of albums without a year.
    public var albumsWithoutYear: Int
    /// The number of steps in the history (the current branch's path).
    public var historySteps: Int
    /// The bytes the library file and its write-ahead log take on disk; for a library on a
    /// PostgreSQL server, the bytes its tables (the history's included) take on the server, with
    /// their indexes and out-of-line values.
    public var bytesOnDisk: Int

    /// Creates statistics.
    ///
    /// - Parameters:
    ///   - albums: The number of albums.
    ///   - artists: The number of different artists.
    ///   - genres: The number of different non-empty genres.
    ///   - firstYear: The earliest year, if any.
    ///   - lastYear: The latest year, if any.
    ///   - albumsWithoutYear: The number of albums without a year.
    ///   - historySteps: The number of history steps.
    ///   - bytesOnDisk: The bytes on disk.
    public init(
        albums: Int, artists: Int, genres: Int, firstYear: Int?, lastYear: Int?, albumsWithoutYear: Int,
        historySteps: Int, bytesOnDisk: Int
    ) {
        self.albums = albums
        self.artists = artists
        self.genres = genres
        self.firstYear = firstYear
        self.lastYear = lastYear
        self.albumsWithoutYear = albumsWithoutYear
        self.historySteps = historySteps
        self.bytesOnDisk = bytesOnDisk
    }

    // Every key written, a missing year as null, so scripts see the same keys every time.
    private enum CodingKeys: String, CodingKey {
        case albums, artists, genres, firstYear, lastYear, albumsWithoutYear, historySteps, bytesOnDisk
    }

    /// Writes every figure, a missing year as `null`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(albums, forKey: .albums)
        try container.encode(artists, forKey: .artists)
        try container.encode(genres, forKey: .genres)
        try container.encode(firstYear, forKey: .firstYear)
        try container.encode(lastYear, forKey: .lastYear)
        try container.encode(albumsWithoutYear, forKey: .albumsWithoutYear)
        try container.encode(historySteps, forKey: .historySteps)
        try container.encode(bytesOnDisk, forKey: .bytesOnDisk)
    }
}
