/// What an import that skips duplicates did, or would do (a dry run): the albums it brought in,
/// the ones it skipped, and where the first went.
///
/// ``LibrarySession/importAlbums(_:keepingDuplicates:dryRun:progress:)`` decides which albums are
/// duplicates inside the import's transaction, from what is committed then, so the outcome is
/// what the step did.
public struct ImportOutcome: Sendable, Hashable {
    /// The step pushed, or `nil` for a dry run.
    public var command: ImportAlbumsCommand?
    /// The albums imported (or that would be), in the file's order.
    public var albums: [Album]
    /// The albums skipped as duplicates, in the file's order.
    public var skipped: [Album]
    /// The position the first imported album went to (or would go to): the library's count plus one.
    public var firstPosition: Int

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - command: The step pushed, `nil` for a dry run.
    ///   - albums: The albums imported.
    ///   - skipped: The albums skipped as duplicates.
    ///   - firstPosition: Where the first imported album went.
    public init(command: ImportAlbumsCommand?, albums: [Album], skipped: [Album], firstPosition: Int) {
        self.command = command
        self.albums = albums
        self.skipped = skipped
        self.firstPosition = firstPosition
    }
}
