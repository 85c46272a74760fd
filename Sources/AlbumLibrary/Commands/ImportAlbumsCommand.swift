/// Appends many albums as one step; undo removes them all.
///
/// All or nothing: the durable history runs ``redo(on:)`` inside one transaction, so a
/// failure part-way (an id already in the library) leaves the library as it was.
public struct ImportAlbumsCommand: Codable, Sendable, Hashable {
    /// The albums, in file order.
    public var albums: [Album]
    /// The position of the first imported album, known once the command has run.
    public var firstPosition: Int?

    /// Creates the command.
    ///
    /// - Parameter albums: The albums, already validated (``AlbumFile/decode(_:)`` does it).
    public init(albums: [Album]) {
        self.albums = albums
    }

    /// "Import 3 albums".
    public var text: String {
        albums.count == 1 ? "Import “\(albums[0].title)”" : "Import \(albums.count) albums"
    }

    /// Appends the albums at the end.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` naming the first album whose id is already in the library.
    public mutating func redo(on library: LibraryAPI) throws {
        try redo(on: library, progress: library.importProgress)
    }

    /// Appends the albums at the end, reporting how many are in so far.
    ///
    /// - Parameters:
    ///   - library: The receiver.
    ///   - progress: Called now and then with the number of albums appended.
    /// - Throws: ``LibraryError`` naming the first album whose id is already in the library.
    public mutating func redo(on library: LibraryAPI, progress: ((Int) -> Void)?) throws {
        let first = try library.count() + 1
        try library.append(contentsOf: albums, progress: progress)
        firstPosition = first
    }

    /// Removes the imported albums.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the command never ran or the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        guard let firstPosition else {
            throw LibraryError(.storage, "cannot undo Import: its position was not recorded")
        }
        let removed = try library.removeAlbums(from: firstPosition, count: albums.count)
        try LibraryAPI.expect(removed.first?.id == albums.first?.id, "undo Import")
    }
}
