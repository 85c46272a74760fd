import Foundation

/// Undoes one earlier step on its own ("undo mine"), or does it again ("redo mine"), as a new
/// step on the current branch: the steps made after it by others stay as they are.
///
/// Made by ``LibrarySession/undoMine(author:)`` and ``LibrarySession/redoMine(author:)``, only
/// after they checked, inside the write transaction, that no later step touched what this one
/// touches. It finds its album by id, and a position it needs (where a deleted album goes back,
/// where a moved one returns) was rebased over the later steps when it was made.
public struct RevertStepCommand: Codable, Sendable, Hashable {
    /// The change reverted: an add, a delete, an edit, a move or a cover change (the kinds whose inverse can be
    /// applied wherever other changes have moved the album).
    public enum Change: Codable, Sendable, Hashable {
        case add(AddAlbumCommand)
        case delete(DeleteAlbumCommand)
        case edit(EditAlbumCommand)
        /// A move of an album recorded with its id (``MoveAlbumCommand/albumID``).
        case move(MoveAlbumCommand)
        /// A change of an album's stored cover image.
        case cover(SetCoverCommand)

        var step: AlbumStep {
            switch self {
            case .add(let add): .add(add)
            case .delete(let delete): .delete(delete)
            case .edit(let edit): .edit(edit)
            case .move(let move): .move(move)
            case .cover(let cover): .cover(cover)
            }
        }

        /// The history text of the change ("Delete “X”").
        public var text: String {
            switch self {
            case .add(let add): add.text
            case .delete(let delete): delete.text
            case .edit(let edit): edit.text
            case .move(let move): move.text
            case .cover(let cover): cover.text
            }
        }
    }

    /// How a step moved positions, for the steps after it that rebase theirs.
    enum Effect: Hashable {
        case inserted(at: Int)
        case removed(at: Int)
    }

    /// The change this step reverts (or, with ``reapplies``, does again).
    public var change: Change
    /// The node of the step that made the change.
    public var step: Int
    /// The node whose effect this step cancels: ``step`` for an undo mine, the undo mine it
    /// takes back for a redo mine.
    public var cancels: Int
    /// `false`: the change is undone (undo mine); `true`: it is done again (redo mine).
    public var reapplies: Bool
    /// Where the album goes in, or where it was when it went out, when this step runs; for a
    /// move, where the album goes.
    public var position: Int
    /// For a move only: where the album was when this step ran (its undo puts it back there).
    public var origin: Int?

    /// Creates the command; ``LibrarySession/undoMine(author:)`` makes it after its checks.
    public init(change: Change, step: Int, cancels: Int, reapplies: Bool, position: Int, origin: Int? = nil) {
        self.change = change
        self.step = step
        self.cancels = cancels
        self.reapplies = reapplies
        self.position = position
        self.origin = origin
    }

    /// "Undo Delete “X” (step 12)", "Redo Delete “X” (step 12)".
    public var text: String { "\(reapplies ? "Redo" : "Undo") \(change.text) (step \(step))" }

    /// How this step's redo moves positions, in order.
    var effects: [Effect] {
        switch change {
        case .add: [reapplies ? .inserted(at: position) : .removed(at: position)]
        case .delete: [reapplies ? .removed(at: position) : .inserted(at: position)]
        case .edit, .cover: []
        case .move: [.removed(at: origin ?? position), .inserted(at: position)]
        }
    }

    /// Reverts the change (or, with ``reapplies``, does it again).
    public mutating func redo(on library: LibraryAPI) throws {
        try run(on: library, forward: !reapplies)
    }

    /// The opposite of ``redo(on:)``.
    public mutating func undo(on library: LibraryAPI) throws {
        try run(on: library, forward: reapplies)
    }

    /// `reverting == true` undoes the change, `false` does it.
    private func run(on library: LibraryAPI, forward reverting: Bool) throws {
        let operation = "\(reverting ? "undo" : "redo") \(change.text)"
        switch change {
        case .add(let add):
            if reverting {
                try library.removeAlbum(withID: add.album.id, for: operation)
            } else {
                try library.insert(add.album, at: min(position, try library.count() + 1))
            }
        case .delete(let delete):
            guard let album = delete.album else {
                throw LibraryError(.storage, "cannot \(operation): the deleted album was not recorded")
            }
            if reverting {
                try library.insert(album, at: min(position, try library.count() + 1))
                if let slot = delete.coverSlot { try library.swapCover(of: album.id, withKept: slot) }
            } else {
                try library.removeAlbum(withID: album.id, for: operation)
                if let slot = delete.coverSlot { try library.swapCover(of: album.id, withKept: slot) }
            }
        case .move(let move):
            // The redo direction takes the album to `position`, the undo back to `origin`.
            guard let id = move.albumID, let at = try library.position(of: id) else {
                throw LibraryError(.storage, "cannot \(operation): the album is no longer in the library")
            }
            try library.moveAlbum(from: at, to: reverting != reapplies ? position : origin ?? at)
        case .cover(let cover):
            // The same exchange as the step's own undo and redo: nothing later touched the image.
            try reverting
                ? cover.exchange(on: library, expecting: cover.image, showing: cover.previous, operation: operation)
                : cover.exchange(on: library, expecting: cover.previous, showing: cover.image, operation: operation)
        case .edit(let edit):
            guard let before = edit.before, let current = try library.album(withID: before.id) else {
                throw LibraryError(.storage, "cannot \(operation): the album is no longer in the library")
            }
            let result =
                reverting ? Self.restoring(edit.changes, from: before, in: current) : try current.applying(edit.changes)
            try library.replaceAlbum(withIDOf: result, for: operation)
        }
    }

    /// `current` with the fields `changes` set taken back from `before`.
    private static func restoring(_ changes: AlbumChanges, from before: Album, in current: Album) -> Album {
        var album = current
        if changes.title != nil { album.title = before.title }
        if changes.artist != nil { album.artist = before.artist }
        if changes.genre != nil { album.genre = before.genre }
        if changes.year != nil || changes.removesYear { album.year = before.year }
        if changes.coverURL != nil || changes.removesCoverURL { album.coverURL = before.coverURL }
        return album
    }
}
