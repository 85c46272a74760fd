public import CommandKit
public import SQLiteDatabase

/// An error about a CommandStore file or history: a stable ``code``, a message naming the file.
///
/// SQLite's own failures are `DatabaseError`s; a `StoreError` is raised when the file or its
/// contents are not what a CommandStore database must be. Match the code to react:
///
/// ```swift
/// do {
///     let db = try Database.openStore(path: path, schemas: [albumsSchema])
/// } catch StoreError.Code.newerSchema {
///     print("This library was written by a newer version of the app.")
/// }
/// ```
///
/// A refusal through `UndoHistory` (another process changed the history, nothing to undo, a macro
/// open, a call from inside a running command) also carries the ``undoErrorCode`` an `UndoStack`
/// would raise for it, so code over `some UndoHistory` matches both histories the same way:
/// `catch UndoError.Code.historyChanged`.
public struct StoreError: Error, Sendable, Hashable {
    /// What kind of problem it is. New codes may be added; match the ones you handle.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public var rawValue: String

        /// Wraps a code name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's stable name.
        public var description: String { rawValue }

        /// Matches a ``StoreError`` carrying this code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? StoreError)?.code == pattern
        }

        /// The file is not an SQLite database at all (or is empty).
        public static let notADatabase = Code(rawValue: "notADatabase")
        /// The file is an SQLite database, but damaged: truncated or with malformed pages; or
        /// inconsistent: its tables do not take a migration its recorded schema version calls for.
        public static let corruptDatabase = Code(rawValue: "corruptDatabase")
        /// The file is a valid SQLite database that CommandStore did not create, or a CommandStore
        /// store of another application (it records none of the schemas it was opened with).
        public static let foreignDatabase = Code(rawValue: "foreignDatabase")
        /// Something other than a regular file is at the database's path or at one of its
        /// companion paths (`-wal`, `-shm`, `-journal`): a directory, a FIFO, a device, a socket, a
        /// link. It is refused before anything is opened, so nothing blocks on it or removes it.
        public static let notARegularFile = Code(rawValue: "notARegularFile")
        /// The file was written by a newer schema version than this program knows.
        public static let newerSchema = Code(rawValue: "newerSchema")
        /// The schemas given to open the store are malformed (duplicate names, gaps in versions).
        public static let invalidSchema = Code(rawValue: "invalidSchema")
        /// A stored command has a kind no registration in the ``CommandRegistry`` knows.
        public static let unknownCommandKind = Code(rawValue: "unknownCommandKind")
        /// A stored command has a version its type cannot decode (newer, or an old one without upgrade).
        public static let unsupportedCommandVersion = Code(rawValue: "unsupportedCommandVersion")
        /// A stored command could not be decoded or encoded (its data does not match its type).
        public static let invalidCommandData = Code(rawValue: "invalidCommandData")
        /// An operation that needs no open macro was called while one is open, or the reverse.
        public static let macroState = Code(rawValue: "macroState")
        /// The history is not what the caller expected: another connection or process changed it
        /// since the caller last read it (``DurableHistory/undo(steps:expecting:)``). Nothing was done.
        public static let historyChanged = Code(rawValue: "historyChanged")
        /// Fewer steps can be undone than were asked for (``DurableHistory/undo(steps:expecting:)``).
        public static let nothingToUndo = Code(rawValue: "nothingToUndo")
        /// Fewer steps can be redone than were asked for (``DurableHistory/redo(steps:expecting:)``).
        public static let nothingToRedo = Code(rawValue: "nothingToRedo")
    }

    /// What kind of problem it is.
    public var code: Code
    /// A message for people, naming the file when there is one.
    public var message: String
    /// The file involved, when there is one.
    public var path: String?
    /// The SQLite error behind this one, when there is one.
    public var databaseError: DatabaseError?
    /// The code an `UndoStack` raises for the same refusal (`UndoError.Code`), or `nil` when the
    /// error is no refusal of the history (a damaged file, a command that does not decode).
    ///
    /// ``Code/historyChanged``, ``Code/nothingToUndo`` and ``Code/nothingToRedo`` carry the code of
    /// that name; ``Code/macroState`` carries `macroOpen`, `unbalancedGrouping` or `reentrantCall`,
    /// whichever it is.
    public var undoErrorCode: UndoError.Code?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The problem.
    ///   - message: A message for people.
    ///   - path: The file involved.
    ///   - databaseError: The SQLite error behind it.
    ///   - undoErrorCode: The refusal's `UndoError.Code`; `nil` takes the one of the same name for
    ///     ``Code/historyChanged``, ``Code/nothingToUndo`` and ``Code/nothingToRedo``, and none
    ///     for the other codes.
    public init(
        _ code: Code, _ message: String, path: String? = nil, databaseError: DatabaseError? = nil,
        undoErrorCode: UndoError.Code? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.databaseError = databaseError
        self.undoErrorCode = undoErrorCode ?? Self.undoErrorCode(for: code)
    }

    /// The `UndoError.Code` a refusal of this code always means (the others say it themselves).
    private static func undoErrorCode(for code: Code) -> UndoError.Code? {
        switch code {
        case .historyChanged: .historyChanged
        case .nothingToUndo: .nothingToUndo
        case .nothingToRedo: .nothingToRedo
        default: nil
        }
    }
}

extension StoreError: UndoHistoryError {}

extension StoreError: CustomStringConvertible {
    /// The message, followed by the SQLite error behind it when there is one.
    public var description: String {
        guard let databaseError else { return message }
        return "\(message) (\(databaseError))"
    }
}
