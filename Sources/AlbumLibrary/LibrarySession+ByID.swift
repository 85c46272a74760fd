public import Foundation

extension LibrarySession {
    /// Edits the album with an id, wherever it is when the transaction runs.
    ///
    /// For views, as ``delete(albumWithID:)``: the position shown may be out of date once another
    /// process has changed the library; the id is not. An edit that would leave the album as it is
    /// is refused and records nothing.
    ///
    /// - Parameters:
    ///   - id: The album's id.
    ///   - changes: The fields to change.
    /// - Returns: The command as it ran (its ``EditAlbumCommand/before`` is the album before the edit).
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` when no album has this id (any more),
    ///   ``LibraryError/Code/nothingToChange`` when the album already has those values,
    ///   ``LibraryError/Code/invalidValue`` for a bad field, or a storage error.
    @discardableResult
    public func edit(albumWithID id: UUID, changes: AlbumChanges) throws -> EditAlbumCommand {
        try push {
            let position = try position(ofAlbumWithID: id)
            let album = try library.album(at: position)
            guard try album.applying(changes) != album else {
                throw LibraryError(.nothingToChange, "“\(album.title)” already has those values: nothing to edit")
            }
            return EditAlbumCommand(position: position, changes: changes)
        }
    }

    /// Moves the album with an id `offset` places (negative: towards position 1), counted from
    /// where it is when the transaction runs.
    ///
    /// - Parameters:
    ///   - id: The album's id.
    ///   - offset: How many places to move it; not 0.
    /// - Returns: The command as it ran (its ``MoveAlbumCommand/to`` is where the album went).
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` when no album has this id (any more) or
    ///   the move would leave the library, ``LibraryError/Code/nothingToChange`` when `offset` is 0,
    ///   or a storage error.
    @discardableResult
    public func move(albumWithID id: UUID, by offset: Int) throws -> MoveAlbumCommand {
        try push {
            let from = try position(ofAlbumWithID: id)
            let to = from + offset
            guard offset != 0 else {
                throw LibraryError(.nothingToChange, "the album stays at position \(from): nothing to move")
            }
            let count = try library.count()
            guard (1...count).contains(to) else {
                let title = try library.album(at: from).title
                throw LibraryError(
                    .positionOutOfRange,
                    "“\(title)” is already \(offset < 0 ? "first" : "last") (position \(from) of \(count))")
            }
            return MoveAlbumCommand(from: from, to: to)
        }
    }

    /// Moves the album with an id to a position, from wherever it is when the transaction runs.
    ///
    /// One step, as ``move(from:to:)``; for views, which know the album by id and the target
    /// the user typed. Whether the target is in range and differs from where the album is, is
    /// decided inside the transaction, from what is committed then.
    ///
    /// - Parameters:
    ///   - id: The album's id.
    ///   - target: Where it goes, from 1 to the number of albums.
    /// - Returns: The command as it ran (its ``MoveAlbumCommand/from`` is where the album was).
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` when no album has this id (any more) or
    ///   `target` is outside the library, ``LibraryError/Code/nothingToChange`` when the album is
    ///   already there, or a storage error.
    @discardableResult
    public func move(albumWithID id: UUID, to target: Int) throws -> MoveAlbumCommand {
        try push {
            let from = try position(ofAlbumWithID: id)
            let count = try library.count()
            guard target >= 1 && target <= count else {
                throw library.outOfRange(target, limit: count)
            }
            guard target != from else {
                let title = try library.album(at: from).title
                throw LibraryError(.nothingToChange, "“\(title)” is already at position \(from): nothing to move")
            }
            return MoveAlbumCommand(from: from, to: target)
        }
    }
}
