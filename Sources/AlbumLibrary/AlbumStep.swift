import CommandStore
import Foundation

/// A step of the library's history, decoded as one of the album commands, with what it touched
/// and how it moved positions: what a selective undo checks and rebases against.
enum AlbumStep {
    case add(AddAlbumCommand)
    case delete(DeleteAlbumCommand)
    case edit(EditAlbumCommand)
    case move(MoveAlbumCommand)
    case importAlbums(ImportAlbumsCommand)
    case replace(ReplaceLibraryCommand)
    case revert(RevertStepCommand)
    case cover(SetCoverCommand)
    /// A macro, or a kind this version does not know the footprint of.
    case other(String)

    init(_ command: DurableCommand<LibraryAPI>) {
        guard case .command(let command) = command else {
            self = .other(command.text)
            return
        }
        switch command {
        case let command as AddAlbumCommand: self = .add(command)
        case let command as DeleteAlbumCommand: self = .delete(command)
        case let command as EditAlbumCommand: self = .edit(command)
        case let command as MoveAlbumCommand: self = .move(command)
        case let command as ImportAlbumsCommand: self = .importAlbums(command)
        case let command as ReplaceLibraryCommand: self = .replace(command)
        case let command as RevertStepCommand: self = .revert(command)
        case let command as SetCoverCommand: self = .cover(command)
        default: self = .other(command.text)
        }
    }

    var isRevert: Bool {
        if case .revert = self { return true }
        return false
    }

    /// What the step touched.
    var footprint: AlbumFootprint {
        switch self {
        case .add(let add): AlbumFootprint(albums: [add.album.id: AlbumFootprint.Part.all])
        case .delete(let delete):
            delete.album.map { AlbumFootprint(albums: [$0.id: AlbumFootprint.Part.all]) } ?? .everything
        case .edit(let edit):
            edit.before.map { AlbumFootprint(albums: [$0.id: AlbumFootprint.parts(of: edit.changes)]) }
                ?? .everything
        case .revert(let revert): revert.change.step.footprint
        case .cover(let cover): AlbumFootprint(albums: [cover.albumID: [.image]])
        // A move recorded before it named its album may have moved any album.
        case .move(let move): move.albumID.map { AlbumFootprint(albums: [$0: [.order]]) } ?? .everything
        case .importAlbums, .replace, .other: .everything
        }
    }

    /// `position` (a place to insert at) after this step ran: one on for an album inserted at or
    /// before it, one back for one removed before it.
    func shifted(_ position: Int) -> Int {
        switch self {
        case .add(let add): add.position <= position ? position + 1 : position
        case .delete(let delete): delete.position < position ? position - 1 : position
        case .move(let move):
            AlbumStep.inserted(at: move.to, AlbumStep.removed(at: move.from, position))
        case .importAlbums(let imported):
            imported.firstPosition.map { $0 <= position ? position + imported.count : position } ?? position
        case .revert(let revert):
            revert.effects.reduce(position) { position, effect in
                switch effect {
                case .inserted(let at): AlbumStep.inserted(at: at, position)
                case .removed(let at): AlbumStep.removed(at: at, position)
                }
            }
        case .edit, .replace, .cover, .other: position
        }
    }

    /// The insertions and removals of single positions this step made, in order (for a rebase
    /// that must know where each one happened; an edit made none).
    var positionEffects: [RevertStepCommand.Effect] {
        switch self {
        case .add(let add): [.inserted(at: add.position)]
        case .delete(let delete): [.removed(at: delete.position)]
        case .move(let move): [.removed(at: move.from), .inserted(at: move.to)]
        case .importAlbums(let imported):
            imported.firstPosition.map { first in (0..<imported.count).map { .inserted(at: first + $0) } } ?? []
        case .revert(let revert): revert.effects
        case .edit, .replace, .cover, .other: []
        }
    }

    private static func inserted(at place: Int, _ position: Int) -> Int { place <= position ? position + 1 : position }
    private static func removed(at place: Int, _ position: Int) -> Int { place < position ? position - 1 : position }

    /// How a refusal names what this step did to an album: "changed the year of", "deleted".
    func verb(for parts: Set<AlbumFootprint.Part>) -> String {
        switch self {
        case .add: "added"
        case .delete: "deleted"
        case .edit:
            "changed " + parts.sorted().map(\.name).joined(separator: " and ") + " of"
        case .move(let move): move.albumID == nil ? "moved albums, perhaps" : "moved"
        case .importAlbums: "imported albums beside"
        case .replace: "replaced the library, with"
        case .revert(let revert): revert.reapplies ? "redid a change to" : "undid a change to"
        case .cover: "changed the cover image of"
        case .other: "changed the library, perhaps"
        }
    }

    /// How a refusal names this step as the caller's: "edit", "delete".
    var noun: String {
        switch self {
        case .add: "add"
        case .delete: "delete"
        case .edit: "edit"
        case .move: "move"
        case .importAlbums: "import"
        case .replace: "replacement"
        case .revert(let revert): revert.reapplies ? "redo" : "undo"
        case .cover: "cover change"
        case .other: "change"
        }
    }
}
