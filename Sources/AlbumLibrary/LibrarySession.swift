import CommandKit
public import CommandStore
import Foundation
public import SQLiteDatabase

/// An open album library: its albums (``library``) and its durable undo history.
///
/// Every change goes through the session as an album command, so it can be undone and
/// redone, also by a later process. Each change and its history record commit together.
///
/// ```swift
/// let session = try LibrarySession.open(path: "/tmp/library.sqlite")
/// let deleted = try session.delete(.position(1))
/// print(deleted.command.text)    // Delete “Best of Bowie”
/// try session.undo()             // it is back, also after a restart
/// ```
public final class LibrarySession {
    /// The library file; for a library on a PostgreSQL server, the server and database without
    /// the password ("ada@db.example:5432/albums").
    public let path: String
    /// The albums: read through it; change them through the session.
    public let library: LibraryAPI
    /// The durable undo history every change goes through: a `DurableHistory` for a library file,
    /// a `PostgreSQLHistory` for a library on a server.
    public let history: any LibraryHistory

    /// Creates a session over an open, migrated database.
    ///
    /// - Parameters:
    ///   - database: The library's connection.
    ///   - path: The file, for messages.
    /// - Throws: `StoreError` when the history cannot be read.
    public init(database: Database, path: String) throws {
        self.path = path
        self.library = LibraryAPI(database: database)
        self.history = try DurableHistory(
            database: database, receiver: library, registry: LibraryAPI.commandRegistry, keepsBranches: true)
    }

    /// A session over a receiver and the history that runs commands on it.
    init(library: LibraryAPI, history: any LibraryHistory, path: String) {
        self.library = library
        self.history = history
        self.path = path
    }

    /// Opens (creating if needed) the library at `path`.
    ///
    /// - Parameter path: The library file.
    /// - Returns: The session.
    /// - Throws: ``LibraryError`` when the file is not an albums library or cannot be opened
    ///   (``LibraryError/Code/damagedLibrary`` when its history cannot be read for damage).
    public static func open(path: String) throws -> LibrarySession {
        let database = try LibraryFile.open(path: path)
        do {
            return try LibrarySession(database: database, path: path)
        } catch {
            database.close()
            throw LibraryError(damage: error) ?? error
        }
    }

    /// The library file's connection.
    ///
    /// - Throws: ``LibraryError/Code/unsupported`` for a library on a PostgreSQL server.
    public var database: Database {
        get throws(LibraryError) { try library.database }
    }

    /// The library file's connection, or `nil` for a library on a PostgreSQL server.
    var file: Database? {
        guard case .file(let database) = library.store else { return nil }
        return database
    }

    /// The commits logged in the library's `-wal` log that were lost when this session opened it,
    /// because the log is damaged before them (SQLite drops everything after a damaged frame and
    /// says nothing; a log is left behind by a process that was killed or crashed). 0 almost always.
    public var lostLogCommits: Int { file?.lostLogCommits ?? 0 }

    /// One line saying that recent commits were lost with a damaged log, or `nil` when none were
    /// (see ``lostLogCommits``).
    public var lostLogCommitsNotice: String? {
        let lost = lostLogCommits
        guard lost > 0 else { return nil }
        let commits = lost == 1 ? "the last commit" : "the last \(lost) commits"
        return "\(path)-wal, the write-ahead log left by a process that did not close the library, was damaged: "
            + "\(commits) logged in it could not be read and \(lost == 1 ? "was" : "were") discarded; the library "
            + "is as it was before \(lost == 1 ? "it" : "them") (restore a backup if you need \(lost == 1 ? "it" : "them"))"
    }

    // MARK: - Changes

    // Every change decides inside its write transaction: a position "at the end" is counted there,
    // an album is named by an AlbumReference resolved there (LibrarySession+References.swift), and
    // what a change reports is what it found and recorded when it ran, never a value read before
    // another process could commit.

    /// Adds an album.
    ///
    /// - Parameters:
    ///   - album: The album, validated.
    ///   - position: Where it goes; `nil` for the end of the library as committed when it runs.
    /// - Returns: The command as it ran (its ``AddAlbumCommand/position`` is where the album went).
    /// - Throws: ``LibraryError/Code/positionOutOfRange``, or a storage error.
    @discardableResult
    public func add(_ album: Album, at position: Int? = nil) throws -> AddAlbumCommand {
        try push(readingAhead: .adding(album, at: position)) {
            AddAlbumCommand(album: album, position: try position ?? (library.count() + 1))
        }
    }

    /// Appends albums as one undoable step, all or nothing.
    ///
    /// The albums are staged in the library's import table and the command pushed, in one
    /// transaction: the history row names the batch and stays small.
    ///
    /// - Parameters:
    ///   - albums: The albums, validated; at least one.
    ///   - progress: Called now and then with the number staged so far.
    /// - Returns: The command as it ran (its ``ImportAlbumsCommand/firstPosition`` is where the
    ///   first album went).
    /// - Throws: ``LibraryError``, or a storage error; the library and history are then unchanged.
    @discardableResult
    public func importAlbums(_ albums: [Album], progress: ((Int) -> Void)? = nil) throws -> ImportAlbumsCommand {
        try push {
            let batch = try library.stageImport(albums, progress: progress)
            return ImportAlbumsCommand(batch: batch, count: albums.count, firstTitle: albums.first?.title ?? "")
        }
    }

    /// Runs `body` in one read snapshot of a library file; on a server, each read `body` makes
    /// takes its own (for previews, which the call itself decides again).
    func inReadSnapshot(_ body: () throws -> Void) throws {
        guard let file else { return try body() }
        try file.inTransaction(.deferred) {
            try body()
            return .commit
        }
    }

    /// Pushes the command `makeCommand` makes inside the history's write transaction. (What an
    /// undone import or replacement keeps for its redo is released by its own discard action when
    /// the push drops it from the history: see ``LibraryAPI/commandRegistry``.)
    func push<Command: PersistentCommand>(
        _ makeCommand: () throws -> Command
    ) throws -> Command where Command.Receiver == LibraryAPI {
        try history.push(makeCommand)
    }

    /// Pushes the command `makeCommand` makes, sending `reads` with the transaction's opening.
    func push<Command: PersistentCommand>(
        readingAhead reads: ChangeReads, _ makeCommand: () throws -> Command
    ) throws -> Command where Command.Receiver == LibraryAPI {
        library.readAhead(reads)
        // A push that fails before its transaction begins leaves nothing for the next one.
        defer { library.readAhead(nil) }
        return try history.push(makeCommand)
    }
}

@available(
    *, unavailable, message: "A LibrarySession uses one Database connection, which belongs to one isolation domain."
)
extension LibrarySession: Sendable {}

extension LibrarySession {
    /// Undoes the last `count` steps, all or none, in one transaction.
    ///
    /// The steps are the last ones as committed when the transaction begins, whichever process
    /// recorded them. With `expected`, the undo happens only if the last step is still the one
    /// the caller showed (see ``undoRecord``).
    ///
    /// - Parameters:
    ///   - count: How many steps, at least 1.
    ///   - expected: The step the caller expects to undo first, or `nil` for the last one, whatever it is.
    /// - Returns: The undone steps' records, most recent first, read in the transaction that undid them.
    /// - Throws: ``LibraryError/Code/nothingToUndo`` when fewer than `count` steps can be undone,
    ///   ``LibraryError/Code/historyChanged`` when the last step is not `expected` (nothing is
    ///   undone then), or what a command throws (the whole undo is rolled back).
    @discardableResult
    public func undo(count: Int = 1, expecting expected: HistoryRecord.ID? = nil) throws -> [HistoryRecord] {
        guard count >= 1 else { throw LibraryError(.nothingToUndo, "cannot undo \(count) steps") }
        do {
            return try Self.translatingHistoryErrors { try history.undo(steps: count, expecting: expected) }
        } catch {
            throw refusal(afterFailed: error, undoing: true, count: count)
        }
    }

    /// Redoes the next `count` undone steps, all or none, in one transaction.
    ///
    /// - Parameters:
    ///   - count: How many steps, at least 1.
    ///   - expected: The step the caller expects to redo first, or `nil` for the next one, whatever it is.
    /// - Returns: The redone steps' records, oldest first, read in the transaction that redid them.
    /// - Throws: ``LibraryError/Code/nothingToRedo`` when fewer than `count` steps can be redone,
    ///   ``LibraryError/Code/historyChanged`` when the next step is not `expected` (nothing is
    ///   redone then), or what a command throws (the whole redo is rolled back).
    @discardableResult
    public func redo(count: Int = 1, expecting expected: HistoryRecord.ID? = nil) throws -> [HistoryRecord] {
        guard count >= 1 else { throw LibraryError(.nothingToRedo, "cannot redo \(count) steps") }
        do {
            return try Self.translatingHistoryErrors { try history.redo(steps: count, expecting: expected) }
        } catch {
            throw refusal(afterFailed: error, undoing: false, count: count)
        }
    }

    /// The history: each step's record, oldest first, and how many are done, read in one transaction.
    ///
    /// - Returns: The records and the current index (0: everything undone).
    /// - Complexity: O(*steps*): each entry's row is read without its payload.
    public func historySteps() throws -> (records: [HistoryRecord], current: Int) {
        let read = try history.records()
        return (read.records, read.index)
    }

    /// The step ``undo(count:expecting:)`` would undo, or `nil` when there is none, as of the last
    /// change or ``refresh()``.
    public var undoRecord: HistoryRecord? { history.canUndo ? history.undoRecord : nil }

    /// The step ``redo(count:expecting:)`` would redo, or `nil` when there is none.
    public var redoRecord: HistoryRecord? { history.canRedo ? history.redoRecord : nil }

    /// The text of the step ``undo(count:expecting:)`` would undo, or `nil` when there is none.
    public var undoText: String? { undoRecord?.actionText }

    /// The text of the step ``redo(count:expecting:)`` would redo, or `nil` when there is none.
    public var redoText: String? { redoRecord?.actionText }

    /// Rereads the history if another process has changed the library since the last call.
    ///
    /// Cheap enough for a view's idle look, many times a second: on a library file one
    /// statement; on a server no round trip unless another client's commit was notified.
    ///
    /// - Returns: Whether anything changed.
    /// - Throws: A storage error.
    @discardableResult
    public func refresh() throws -> Bool {
        try history.followOtherClients()
    }

    /// The history's refusals as the library's errors (their messages are already for people).
    private static func translatingHistoryErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError
            where error.code == .nothingToUndo || error.code == .nothingToRedo
            || error.code == .historyChanged
        {
            let code: LibraryError.Code =
                switch error.code {
                case .nothingToUndo: .nothingToUndo
                case .nothingToRedo: .nothingToRedo
                default: .historyChanged
                }
            throw LibraryError(code, error.message)
        }
    }
}
