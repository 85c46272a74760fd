import CommandStore

// The changes that name an album. Each resolves its ``AlbumReference`` inside the write
// transaction (``LibrarySession/change(_:_:)``), refuses there a change that would change nothing,
// and returns the album it found with the command: nothing a caller read before can reach it.

extension LibrarySession {
    /// Deletes the album a reference names when the transaction runs.
    ///
    /// - Parameter album: The album: a position, an id or a title (``LibraryAPI/find(_:)``).
    /// - Returns: The change as it ran (its ``AlbumChange/album`` is the album deleted).
    /// - Throws: ``LibraryError`` with ``LibraryError/Code/positionOutOfRange``,
    ///   ``LibraryError/Code/albumNotFound`` or ``LibraryError/Code/ambiguousTitle``, or a
    ///   storage error; nothing is then recorded.
    @discardableResult
    public func delete(_ album: AlbumReference) throws -> AlbumChange<DeleteAlbumCommand> {
        try change(album) { position, _ in DeleteAlbumCommand(position: position) }
    }

    /// Edits the album a reference names when the transaction runs.
    ///
    /// An edit that would leave the album as it is is refused and records nothing. The step
    /// records only the fields that differ from the album's (a field sent with the value it has
    /// is no change): so an undo of this step alone ("undo mine") conflicts only with later
    /// changes to those fields, and takes back only them.
    ///
    /// - Parameters:
    ///   - album: The album: a position, an id or a title (``LibraryAPI/find(_:)``).
    ///   - changes: The fields to change.
    /// - Returns: The change as it ran (its ``AlbumChange/album`` is the album before the edit).
    /// - Throws: What ``delete(_:)`` throws, ``LibraryError/Code/nothingToChange`` when the album
    ///   already has those values, ``LibraryError/Code/invalidValue`` for a bad field, or a
    ///   storage error.
    @discardableResult
    public func edit(_ album: AlbumReference, changes: AlbumChanges) throws -> AlbumChange<EditAlbumCommand> {
        try change(album) { position, found in
            let edited = try found.applying(changes)
            guard edited != found else {
                throw LibraryError(.nothingToChange, "“\(found.title)” already has those values: nothing to edit")
            }
            return EditAlbumCommand(
                position: position, changes: changes.keeping(onlyWhatDiffersBetween: found, and: edited))
        }
    }

    /// Moves the album a reference names `offset` places (negative: towards position 1), counted
    /// from where it is when the transaction runs.
    ///
    /// - Parameters:
    ///   - album: The album: a position, an id or a title (``LibraryAPI/find(_:)``).
    ///   - offset: How many places to move it; not 0.
    /// - Returns: The change as it ran (its command's ``MoveAlbumCommand/to`` is where it went).
    /// - Throws: What ``delete(_:)`` throws, ``LibraryError/Code/positionOutOfRange`` when the
    ///   move would leave the library, ``LibraryError/Code/nothingToChange`` when `offset` is 0,
    ///   or a storage error.
    @discardableResult
    public func move(_ album: AlbumReference, by offset: Int) throws -> AlbumChange<MoveAlbumCommand> {
        try change(album) { from, found in
            guard offset != 0 else {
                throw LibraryError(.nothingToChange, "“\(found.title)” stays at position \(from): nothing to move")
            }
            let count = try library.count()
            let to = from + offset
            guard (1...count).contains(to) else {
                throw LibraryError(
                    .positionOutOfRange,
                    "“\(found.title)” is already \(offset < 0 ? "first" : "last") (position \(from) of \(count))")
            }
            return MoveAlbumCommand(from: from, to: to)
        }
    }

    /// Moves the album a reference names to a position, from wherever it is when the
    /// transaction runs.
    ///
    /// Whether the target is in the library and differs from where the album is, is decided
    /// inside the transaction, from what is committed then.
    ///
    /// - Parameters:
    ///   - album: The album: a position, an id or a title (``LibraryAPI/find(_:)``).
    ///   - target: Where it goes, from 1 to the number of albums.
    /// - Returns: The change as it ran (its ``AlbumChange/position`` is where the album was).
    /// - Throws: What ``delete(_:)`` throws, ``LibraryError/Code/positionOutOfRange`` when
    ///   `target` is outside the library, ``LibraryError/Code/nothingToChange`` when the album is
    ///   already there, or a storage error.
    @discardableResult
    public func move(_ album: AlbumReference, to target: Int) throws -> AlbumChange<MoveAlbumCommand> {
        try change(album, movingTo: target) { from, found in
            let count = try library.count()
            guard target >= 1 && target <= count else {
                throw library.outOfRange(target, limit: count)
            }
            guard target != from else {
                throw LibraryError(.nothingToChange, "“\(found.title)” is already at position \(from): nothing to move")
            }
            return MoveAlbumCommand(from: from, to: target)
        }
    }

    /// Adds an album right after the album a reference names when the transaction runs, or at
    /// the end when `reference` is `nil`.
    ///
    /// - Parameters:
    ///   - album: The album, validated.
    ///   - reference: The album to add it after.
    /// - Returns: The command as it ran (its ``AddAlbumCommand/position`` is where the album went).
    /// - Throws: What ``delete(_:)`` throws, or a storage error.
    @discardableResult
    public func add(_ album: Album, after reference: AlbumReference?) throws -> AddAlbumCommand {
        try push {
            let position = try reference.map { try library.find($0).position + 1 } ?? (library.count() + 1)
            return AddAlbumCommand(album: album, position: position)
        }
    }

    /// Pushes the command `makeCommand` makes from the album `reference` names, both inside the
    /// history's write transaction, and returns it with that album. A move passes its `target`,
    /// whose reads a server library sends ahead too.
    func change<Command: PersistentCommand>(
        _ reference: AlbumReference, movingTo target: Int? = nil,
        _ makeCommand: (_ position: Int, _ album: Album) throws -> Command
    ) throws -> AlbumChange<Command> where Command.Receiver == LibraryAPI {
        var found: (position: Int, album: Album)?
        let command = try push(readingAhead: .changing(reference, movingTo: target)) {
            let located = try library.find(reference)
            found = located
            return try makeCommand(located.position, located.album)
        }
        guard let found else { preconditionFailure("push returned without making its command") }
        return AlbumChange(command: command, album: found.album, position: found.position)
    }
}
