public import CommandStore
import Foundation

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
    /// The durable undo history every change goes through.
    public let history: DurableHistory<LibraryAPI>

    /// Creates a session over an open, migrated database.
    ///
    /// - Parameters:
    ///   - database: The library's connection.
    ///   - path: The file, for messages.
    /// - Throws: `StoreError` when the history cannot be read.
    public init(database: Database, path: String) throws {
        self.path = path
        self.library = LibraryAPI(database: database)
        self.history = try DurableHistory(database: database, receiver: library, registry: LibraryAPI.commandRegistry)
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
        let command = AddAlbumCommand(album: album, position: try position ?? (library.count() + 1))
        try push(command)
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
        // Read first, for the caller's message; the command finds it again when it runs.
        command.album = try library.album(at: position)
        try push(DeleteAlbumCommand(position: position))
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
        command.before = try library.album(at: position)
        try push(EditAlbumCommand(position: position, changes: changes))
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
        command.title = try library.album(at: from).title
        try push(MoveAlbumCommand(from: from, to: to))
        return command
    }

    /// Appends albums as one undoable step, all or nothing.
    ///
    /// The albums are staged in the library's import table and the command pushed, in one
    /// transaction: the history row names the batch and stays small.
    ///
    /// - Parameters:
    ///   - albums: The albums, validated; at least one.
    ///   - progress: Called now and then with the number staged so far.
    /// - Returns: The command as it ran.
    /// - Throws: ``LibraryError``, or a storage error; the library and history are then unchanged.
    @discardableResult
    public func importAlbums(_ albums: [Album], progress: ((Int) -> Void)? = nil) throws -> ImportAlbumsCommand {
        var command = ImportAlbumsCommand(batch: UUID(), count: albums.count, firstTitle: albums.first?.title ?? "")
        command.firstPosition = try library.count() + 1
        do {
            try database.inTransaction {
                command.batch = try library.stageImport(albums, progress: progress)
                try history.push(
                    ImportAlbumsCommand(batch: command.batch, count: albums.count, firstTitle: command.firstTitle))
                // The push consumed the new batch; any other is an undone import the push dropped.
                try library.discardStagedImports()
                try recordStepTime()
                return .commit
            }
        } catch {
            // The history saw a push that was rolled back with our transaction: forget it.
            try? history.reload()
            throw error
        }
        return command
    }

    /// Pushes a command and, in the same transaction, discards the albums of undone imports:
    /// a push drops the redo tail, so they can never be redone.
    private func push<Command: PersistentCommand>(_ command: Command) throws where Command.Receiver == LibraryAPI {
        do {
            try database.inTransaction {
                try history.push(command)
                try library.discardStagedImports()
                try recordStepTime()
                return .commit
            }
        } catch {
            try? history.reload()
            throw error
        }
    }
}

@available(
    *, unavailable, message: "A LibrarySession uses one Database connection, which belongs to one isolation domain."
)
extension LibrarySession: Sendable {}

extension LibrarySession {
    /// Undoes the last `count` steps, all or none, in one transaction.
    ///
    /// - Parameter count: How many steps, at least 1.
    /// - Returns: The undone steps' texts, most recent first.
    /// - Throws: ``LibraryError/Code/nothingToUndo`` when fewer than `count` steps can be undone
    ///   (nothing is undone then), or what a command throws (the whole undo is rolled back).
    @discardableResult
    public func undo(count: Int = 1) throws -> [String] {
        let index = history.index
        guard count >= 1, index >= count else {
            if index == 0 { throw LibraryError(.nothingToUndo, "nothing to undo") }
            throw LibraryError(.nothingToUndo, "cannot undo \(count) steps: only \(index) can be undone")
        }
        let texts = try (index - count..<index).reversed().map { try history.text(at: $0) }
        try history.setIndex(index - count)
        return texts
    }

    /// Redoes the next `count` undone steps, all or none, in one transaction.
    ///
    /// - Parameter count: How many steps, at least 1.
    /// - Returns: The redone steps' texts, oldest first.
    /// - Throws: ``LibraryError/Code/nothingToRedo`` when fewer than `count` steps can be redone
    ///   (nothing is redone then), or what a command throws (the whole redo is rolled back).
    @discardableResult
    public func redo(count: Int = 1) throws -> [String] {
        let index = history.index
        let available = history.count - index
        guard count >= 1, available >= count else {
            if available == 0 { throw LibraryError(.nothingToRedo, "nothing to redo") }
            throw LibraryError(.nothingToRedo, "cannot redo \(count) steps: only \(available) can be redone")
        }
        let texts = try (index..<index + count).map { try history.text(at: $0) }
        try history.setIndex(index + count)
        return texts
    }

    /// The history: each step's text, oldest first, and how many are done.
    ///
    /// - Returns: The texts and the current index (0: everything undone).
    /// - Complexity: O(*steps*): each entry's text is read.
    public func historySteps() throws -> (texts: [String], current: Int) {
        (try (0..<history.count).map { try history.text(at: $0) }, history.index)
    }

    /// The text of the step ``undo(count:)`` would undo, or `nil` when there is none.
    public var undoText: String? { history.canUndo ? history.undoText : nil }

    /// The text of the step ``redo(count:)`` would redo, or `nil` when there is none.
    public var redoText: String? { history.canRedo ? history.redoText : nil }
}
