/// Why a library operation or an album file was refused.
///
/// Errors are message-first: ``message`` is one line a person can act on, naming the
/// position, element or field at fault. ``code`` is stable, so callers can match on it
/// without depending on the wording:
///
/// ```swift
/// do {
///     try session.delete(.position(9))
/// } catch let error where error.code == .positionOutOfRange {
///     print(error.message)
/// }
/// ```
public struct LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, comparable error code. New codes may be added without breaking callers.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name ("position-out-of-range").
        public var rawValue: String

        /// Creates a code from its stable name.
        ///
        /// - Parameter rawValue: The name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's stable name.
        public var description: String { rawValue }

        /// A field holds a value an album cannot have (an empty title, year 0, a relative cover URL).
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// A query (``AlbumQuery``) cannot be read: an unbalanced quote, an unknown field, a bad
        /// year range or regular expression.
        public static let invalidQuery = Code(rawValue: "invalid-query")
        /// An album file is not valid JSON, not an array of albums, or has a bad element.
        public static let malformedFile = Code(rawValue: "malformed-file")
        /// A position is not between 1 and the number of albums (plus one, for adding).
        public static let positionOutOfRange = Code(rawValue: "position-out-of-range")
        /// The file at the library path exists but is not an albums library.
        public static let notALibrary = Code(rawValue: "not-a-library")
        /// The library was written by a newer version of albums.
        public static let newerLibrary = Code(rawValue: "newer-library")
        /// Undo was asked for with nothing left to undo.
        public static let nothingToUndo = Code(rawValue: "nothing-to-undo")
        /// Redo was asked for with nothing left to redo.
        public static let nothingToRedo = Code(rawValue: "nothing-to-redo")
        /// The history is not what the caller showed: another process changed it meanwhile.
        /// Nothing was done.
        public static let historyChanged = Code(rawValue: "history-changed")
        /// An author's own change cannot be undone (or redone) on its own: a later change by
        /// someone else touched the same album. Nothing was done.
        public static let conflict = Code(rawValue: "conflict")
        /// A jump named a step that is not in the history's tree.
        public static let noSuchStep = Code(rawValue: "no-such-step")
        /// The library's storage failed (disk full, permissions, corruption).
        public static let storage = Code(rawValue: "storage")
        /// The stored history names a command this version does not know.
        public static let unknownCommand = Code(rawValue: "unknown-command")
        /// The library cannot do this where it is stored (a feature that needs a library file,
        /// asked of a library on a PostgreSQL server).
        public static let unsupported = Code(rawValue: "unsupported")

        /// Matches an error against a code, so callers can write `catch LibraryError.nothingToUndo`.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LibraryError)?.code == code
        }
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// One line for a person, naming what was at fault.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: One line for a person.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension LibraryError {
    /// Matches ``Code/invalidValue``.
    public static var invalidValue: Code { .invalidValue }
    /// Matches ``Code/malformedFile``.
    public static var malformedFile: Code { .malformedFile }
    /// Matches ``Code/positionOutOfRange``.
    public static var positionOutOfRange: Code { .positionOutOfRange }
    /// Matches ``Code/notALibrary``.
    public static var notALibrary: Code { .notALibrary }
    /// Matches ``Code/nothingToUndo``.
    public static var nothingToUndo: Code { .nothingToUndo }
    /// Matches ``Code/nothingToRedo``.
    public static var nothingToRedo: Code { .nothingToRedo }
}
