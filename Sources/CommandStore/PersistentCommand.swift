public import Foundation
import SQLiteDatabase

/// A reversible command that can be stored, decoded in a later process, and run against a receiver.
///
/// The command holds only data (it is `Codable`); the receiver it works on (the album library) is
/// handed to ``redo(on:)`` and ``undo(on:)``, and writes its own data through the same `Database` as
/// the history, so ``DurableHistory`` commits the change and its history record together.
///
/// A command type is stored under its ``kind``, a stable name that must never change, and its
/// ``version``, to bump when its coded shape changes (decode old shapes in ``decode(_:version:)``).
/// Register every type in a ``CommandRegistry`` so stored commands can be decoded back.
///
/// ```swift
/// struct DeleteAlbum: PersistentCommand {
///     static let kind = "albums.delete"
///     let albumID: Int
///     var deleted: Album?       // captured by redo, so undo can re-insert it
///
///     var text: String { "Delete Album" }
///
///     mutating func redo(on library: Library) throws {
///         deleted = try library.removeAlbum(id: albumID)
///     }
///
///     mutating func undo(on library: Library) throws {
///         if let deleted { try library.insert(deleted) }
///     }
/// }
/// ```
///
/// Defaults: ``version`` is 1, ``actionText`` is ``text``, ``mergeID`` is `nil` (never merges),
/// ``isObsolete`` is `false`, ``isSignificant`` is `true`, ``merge(with:)`` returns `false`, and
/// ``decode(_:version:)`` decodes JSON of the current version only. The semantics of each are those
/// of CommandKit's `UndoCommand`.
public protocol PersistentCommand<Receiver>: Codable, SendableMetatype {
    /// What the command works on (typically a class or a struct that writes through a `Database`).
    associatedtype Receiver

    /// The stable name the command is stored under (`"albums.delete"`). Never change it.
    static var kind: String { get }

    /// The version of the command's coded shape, stored with it. Defaults to 1.
    static var version: Int { get }

    /// A short, user-visible description, as shown in a history list.
    var text: String { get }

    /// The text for Undo/Redo titles ("Delete Album" in "Undo Delete Album"). Defaults to ``text``.
    var actionText: String { get }

    /// Commands with the same non-`nil` ID may merge (see ``merge(with:)``). Defaults to `nil`.
    var mergeID: Int? { get }

    /// Whether the command no longer does anything and should be removed. Defaults to `false`.
    var isObsolete: Bool { get }

    /// Whether the command is a step of its own, or rides along with the one before. Defaults to `true`.
    var isSignificant: Bool { get }

    /// Applies the change to the receiver. Called once when pushed, and again on each redo.
    ///
    /// Write the receiver's data through the history's `Database`: the write then commits or
    /// rolls back together with the history record. A command that throws leaves nothing behind.
    mutating func redo(on receiver: Receiver) throws

    /// Reverts the change made by the last ``redo(on:)``.
    mutating func undo(on receiver: Receiver) throws

    /// Absorbs `other`, a newer command of the same type and ``mergeID`` that has already run.
    ///
    /// - Returns: `true` if this command now stands for both. Defaults to `false`.
    mutating func merge(with other: Self) -> Bool

    /// Decodes a stored command written at `version` (this type's current ``version`` or an older one).
    ///
    /// The default decodes JSON when `version` is the current one and throws
    /// ``StoreError/Code/unsupportedCommandVersion`` otherwise. Implement it to read older shapes.
    ///
    /// - Parameters:
    ///   - data: The stored bytes: JSON, as `JSONEncoder` writes it (read it with `JSONDecoder`).
    ///   - version: The version stored with them.
    /// - Returns: The command.
    /// - Throws: An error when the bytes do not decode.
    static func decode(_ data: Data, version: Int) throws -> Self
}

extension PersistentCommand {
    /// Version 1.
    public static var version: Int { 1 }
    /// The ``text``.
    public var actionText: String { text }
    /// `nil`: the command never merges.
    public var mergeID: Int? { nil }
    /// `false`.
    public var isObsolete: Bool { false }
    /// `true`.
    public var isSignificant: Bool { true }
    /// `false`: the command absorbs nothing.
    public mutating func merge(with other: Self) -> Bool { false }

    /// Decodes the current version's JSON; refuses other versions.
    public static func decode(_ data: Data, version: Int) throws -> Self {
        guard version == Self.version else {
            throw StoreError(
                .unsupportedCommandVersion,
                "command kind \(kind) is stored at version \(version); \(Self.self) decodes version \(Self.version) only"
            )
        }
        return try JSONDecoder().decode(Self.self, from: data)
    }
}
