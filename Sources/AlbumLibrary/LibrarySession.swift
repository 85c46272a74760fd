public import CommandStore

/// An open album library: its albums (``library``) and its durable undo history.
///
/// Every change goes through the session as an album command, so it can be undone and
/// redone, also by a later process. Each change and its history record commit together.
///
/// ```swift
/// let session = try LibrarySession.open(path: "/tmp/library.sqlite")
/// let deleted = try session.delete(at: 1)
/// print(deleted.text)            // Delete “Best of Bowie”
/// try session.undo()             // it is back, also after a restart
/// ```
public final class LibrarySession {
    /// The library file.
    public let path: String
    /// The albums: read through it; change them through the session.
    public let library: LibraryAPI

    /// Creates a session over an open, migrated database.
    ///
    /// - Parameters:
    ///   - database: The library's connection.
    ///   - path: The file, for messages.
    public init(database: Database, path: String) throws {
        self.path = path
        self.library = LibraryAPI(database: database)
    }

    /// Opens (creating if needed) the library at `path`.
    ///
    /// - Parameter path: The library file.
    /// - Returns: The session.
    /// - Throws: ``LibraryError`` when the file is not an albums library or cannot be opened.
    public static func open(path: String) throws -> LibrarySession {
        try LibrarySession(database: try LibraryFile.open(path: path), path: path)
    }

    /// The connection.
    public var database: Database { library.database }

    // MARK: - Changes

    /// Adds an album.
    ///
    /// - Parameters:
    ///   - album: The album, validated.
    ///   - position: Where it goes; `nil` for the end.
    /// - Returns: The command as it ran.
    /// - Throws: ``LibraryError/Code/positionOutOfRange``, or a storage error.
    @discardableResult
    public func add(_ album: Album, at position: Int? = nil) throws -> AddAlbumCommand {
        var command = AddAlbumCommand(album: album, position: try position ?? (library.count() + 1))
        try run(&command)
        return command
    }

    /// Deletes the album at a position.
    ///
    /// - Parameter position: From 1 to the number of albums.
    /// - Returns: The command as it ran (its ``DeleteAlbumCommand/album`` is the deleted album).
    /// - Throws: ``LibraryError/Code/positionOutOfRange``, or a storage error.
    @discardableResult
    public func delete(at position: Int) throws -> DeleteAlbumCommand {
        var command = DeleteAlbumCommand(position: position)
        try run(&command)
        return command
    }

    /// Edits the album at a position.
    ///
    /// - Parameters:
    ///   - position: From 1 to the number of albums.
    ///   - changes: The fields to change.
    /// - Returns: The command as it ran.
    /// - Throws: ``LibraryError``, or a storage error.
    @discardableResult
    public func edit(at position: Int, changes: AlbumChanges) throws -> EditAlbumCommand {
        var command = EditAlbumCommand(position: position, changes: changes)
        try run(&command)
        return command
    }

    /// Moves an album.
    ///
    /// - Parameters:
    ///   - from: Its position now.
    ///   - to: Its position afterwards.
    /// - Returns: The command as it ran.
    /// - Throws: ``LibraryError/Code/positionOutOfRange``, or a storage error.
    @discardableResult
    public func move(from: Int, to: Int) throws -> MoveAlbumCommand {
        var command = MoveAlbumCommand(from: from, to: to)
        try run(&command)
        return command
    }

    /// Appends albums as one undoable step, all or nothing.
    ///
    /// - Parameters:
    ///   - albums: The albums, validated.
    ///   - progress: Called now and then with the number appended so far.
    /// - Returns: The command as it ran.
    /// - Throws: ``LibraryError``, or a storage error; the library is then unchanged.
    @discardableResult
    public func importAlbums(_ albums: [Album], progress: ((Int) -> Void)? = nil) throws -> ImportAlbumsCommand {
        var command = ImportAlbumsCommand(albums: albums)
        try database.inTransaction {
            try command.redo(on: library, progress: progress)
            return .commit
        }
        return command
    }

    private func run<Command: AlbumCommand>(_ command: inout Command) throws {
        try database.inTransaction {
            try command.redo(on: library)
            return .commit
        }
    }
}

@available(*, unavailable, message: "A LibrarySession uses one Database connection, which belongs to one isolation domain.")
extension LibrarySession: Sendable {}

/// What the album commands have in common (the durable history's command protocol adds the rest).
protocol AlbumCommand: Codable, Sendable {
    var text: String { get }
    mutating func redo(on library: LibraryAPI) throws
    mutating func undo(on library: LibraryAPI) throws
}

extension AddAlbumCommand: AlbumCommand {}
extension DeleteAlbumCommand: AlbumCommand {}
extension EditAlbumCommand: AlbumCommand {}
extension MoveAlbumCommand: AlbumCommand {}
extension ImportAlbumsCommand: AlbumCommand {}

extension LibrarySession {
    /// Undoes the last `count` steps, all or none.
    ///
    /// - Parameter count: How many steps, at least 1.
    /// - Returns: The undone steps' texts, most recent first.
    /// - Throws: ``LibraryError/Code/nothingToUndo`` when fewer than `count` steps can be undone.
    public func undo(count: Int = 1) throws -> [String] {
        throw LibraryError(.nothingToUndo, "nothing to undo")
    }

    /// Redoes the next `count` undone steps, all or none.
    ///
    /// - Parameter count: How many steps, at least 1.
    /// - Returns: The redone steps' texts, oldest first.
    /// - Throws: ``LibraryError/Code/nothingToRedo`` when fewer than `count` steps can be redone.
    public func redo(count: Int = 1) throws -> [String] {
        throw LibraryError(.nothingToRedo, "nothing to redo")
    }

    /// The history: each step's text, oldest first, and how many are done.
    ///
    /// - Returns: The texts and the current index (0: everything undone).
    public func historySteps() throws -> (texts: [String], current: Int) {
        ([], 0)
    }

    /// The text of the step ``undo(count:)`` would undo, or `nil` when there is none.
    public func undoText() throws -> String? { nil }

    /// The text of the step ``redo(count:)`` would redo, or `nil` when there is none.
    public func redoText() throws -> String? { nil }
}
