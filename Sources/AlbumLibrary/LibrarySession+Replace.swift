import CommandStore
import Foundation

extension LibrarySession {
    /// Replaces every album with `albums`, as one undoable step, all or nothing.
    ///
    /// Restores a backup: after `export`, any changes, then this with the exported albums, the
    /// library exports byte for byte as it did (ids included). Undo brings back the albums it replaced.
    ///
    /// ```swift
    /// let backup = try AlbumFile.decode(Data(contentsOf: url))
    /// try session.replaceAlbums(with: backup)
    /// ```
    ///
    /// - Parameters:
    ///   - albums: The albums, validated, their ids distinct; may be empty (an empty library).
    ///   - progress: Called now and then with the number staged so far.
    /// - Returns: The command as it ran.
    /// - Throws: ``LibraryError/Code/nothingToChange`` when the library already holds exactly
    ///   these albums in this order (the library's own export: the history records only real
    ///   changes), another ``LibraryError``, or a storage error; the library and history are then
    ///   unchanged.
    @discardableResult
    public func replaceAlbums(with albums: [Album], progress: ((Int) -> Void)? = nil) throws -> ReplaceLibraryCommand {
        // Staged inside the history's write transaction, as an import is (see `importAlbums`), and
        // compared there with the albums as committed then.
        try history.push {
            guard try library.count() != albums.count || library.albums() != albums else {
                throw LibraryError(
                    .nothingToChange,
                    "the library already holds exactly these \(albums.count) albums in this order: nothing to replace")
            }
            return ReplaceLibraryCommand(
                batch: try library.stageImport(albums, progress: progress), count: albums.count)
        }
    }
}
