public import CommandStore
public import Foundation

// The album commands as durable-history commands. Each kind is a stable name stored with every
// history row: renaming one would make old histories unreadable, so they never change.

extension AddAlbumCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.add`.
    public static let kind = "albums.add"
}

extension DeleteAlbumCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.delete`.
    public static let kind = "albums.delete"
}

extension EditAlbumCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.edit`.
    public static let kind = "albums.edit"
    /// 2 since an edit can remove the year or the cover (``AlbumChanges/removesYear``): an albums
    /// that knows only version 1 would redo such a step keeping the year, so it must refuse it.
    public static var version: Int { 2 }

    /// Decodes version 1 (no removals: the keys are absent) and version 2, the same JSON.
    ///
    /// - Parameters:
    ///   - data: The stored JSON.
    ///   - version: The version stored with it.
    /// - Returns: The command.
    /// - Throws: `StoreError` for a version newer than 2, or the decoder's error.
    public static func decode(_ data: Data, version: Int) throws -> Self {
        guard (1...Self.version).contains(version) else {
            throw StoreError(
                .unsupportedCommandVersion,
                "command kind \(kind) is stored at version \(version); EditAlbumCommand decodes versions 1 to \(Self.version)"
            )
        }
        return try JSONDecoder().decode(Self.self, from: data)
    }
}

extension MoveAlbumCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.move`.
    public static let kind = "albums.move"
}

extension RevertStepCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.revert`.
    public static let kind = "albums.revert"
}

extension ImportAlbumsCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.import`.
    public static let kind = "albums.import"
}

extension ReplaceLibraryCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.replace`.
    public static let kind = "albums.replace"
}

extension SkippedStepCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.skipped`.
    public static let kind = "albums.skipped"
}

extension BulkChangeCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.bulk`.
    public static let kind = "albums.bulk"
    /// 2 since the albums are kept in the library's `bulk_album` table and the row names their
    /// batch: an albums that knows only version 1 would find no albums in such a row, so it must
    /// refuse it.
    public static var version: Int { 2 }

    /// Decodes version 1 (the albums in the row) and version 2 (a batch and a count).
    ///
    /// - Parameters:
    ///   - data: The stored JSON.
    ///   - version: The version stored with it.
    /// - Returns: The command.
    /// - Throws: `StoreError` for a version newer than 2, or the decoder's error.
    public static func decode(_ data: Data, version: Int) throws -> Self {
        guard (1...Self.version).contains(version) else {
            throw StoreError(
                .unsupportedCommandVersion,
                "command kind \(kind) is stored at version \(version); BulkChangeCommand decodes versions 1 to \(Self.version)"
            )
        }
        return try JSONDecoder().decode(Self.self, from: data)
    }
}

extension SetCoverCommand: PersistentCommand {
    /// The album library.
    public typealias Receiver = LibraryAPI
    /// The stored kind: `albums.cover`.
    public static let kind = "albums.cover"
}

extension LibraryAPI {
    /// Every album command, for decoding a library's durable history.
    public static var commandRegistry: CommandRegistry<LibraryAPI> {
        var registry = CommandRegistry<LibraryAPI>()
        registry.register(AddAlbumCommand.self)
        // A cover step, a delete or a bulk delete leaving the history releases the cover images it
        // keeps for its undo or redo (none for most deletes: only an album with a stored cover).
        // A bulk step's entry leaving the history releases the albums it keeps, too.
        registry.register(BulkChangeCommand.self) { command, library in
            try command.discard(on: library)
        }
        registry.register(DeleteAlbumCommand.self) { command, library in
            if let slot = command.coverSlot { try library.discardKeptCovers(slot) }
        }
        registry.register(SetCoverCommand.self) { command, library in
            try library.discardKeptCovers(command.slot)
        }
        registry.register(EditAlbumCommand.self)
        registry.register(MoveAlbumCommand.self)
        registry.register(RevertStepCommand.self)
        registry.register(SkippedStepCommand.self)
        // An import's entry leaving the history (a dropped redo tail, a trim, a clear) releases
        // the albums it staged for a redo.
        registry.register(ImportAlbumsCommand.self) { command, library in
            try library.discardStagedImport(command.batch)
        }
        // Its entry leaving the history (dropped from the redo tail, trimmed, cleared) releases
        // the albums it keeps for an undo or a redo.
        registry.register(ReplaceLibraryCommand.self) { command, library in
            try library.discardReplacement(command.batch)
        }
        return registry
    }
}
