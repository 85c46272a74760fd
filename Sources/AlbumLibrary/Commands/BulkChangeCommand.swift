public import Foundation

/// One change to several albums as one undoable step: `albums delete 3 4 7`, `albums delete
/// QUERY…`, `albums edit QUERY… --genre Jazz`, `albums move QUERY… --to N`.
///
/// The command records every album it changed as it was before, with its position, in library
/// order: redo finds each by id; undo puts back exactly the albums and positions it recorded
/// (deleted albums are inserted again in ascending position order, which rebuilds the old order,
/// in one walk through the library).
/// ``LibrarySession`` decides which albums inside the write transaction.
public struct BulkChangeCommand: Codable, Sendable, Hashable {
    /// What the change does to each album.
    public enum Action: Codable, Sendable, Hashable {
        /// Deletes them.
        case delete
        /// Changes these fields of each.
        case edit(AlbumChanges)
        /// Moves them, in library order, to consecutive positions starting at this one.
        case move(to: Int)
    }

    /// One album the change touched, as it was before, and where.
    public struct Member: Codable, Sendable, Hashable {
        /// The album's position before the change.
        public var position: Int
        /// The album before the change.
        public var album: Album

        /// Creates a member.
        ///
        /// - Parameters:
        ///   - position: The position before the change.
        ///   - album: The album before the change.
        public init(position: Int, album: Album) {
            self.position = position
            self.album = album
        }
    }

    /// What the change does.
    public var action: Action
    /// The albums it touches, in ascending position order.
    public var members: [Member]
    /// Where a delete keeps the stored cover images of the albums it deleted, for its undo (`nil`
    /// when none had one).
    public var coverSlot: UUID?

    /// Creates the command.
    ///
    /// - Parameters:
    ///   - action: What the change does.
    ///   - members: The albums, as they are now, with their positions; sorted here.
    public init(action: Action, members: [Member]) {
        self.action = action
        self.members = members.sorted { $0.position < $1.position }
    }

    /// "Delete 12 albums", "Edit 3 albums", "Move 2 albums to position 5".
    public var text: String {
        let albums = "\(members.count) album\(members.count == 1 ? "" : "s")"
        switch action {
        case .delete: return "Delete \(albums)"
        case .edit: return "Edit \(albums)"
        case .move(let to): return "Move \(albums) to position \(to)"
        }
    }

    /// Makes the change.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when an album is no longer there or a field is invalid.
    public mutating func redo(on library: LibraryAPI) throws {
        switch action {
        case .delete:
            let slot = coverSlot ?? UUID()
            // One statement when no album has a stored cover (most libraries): no look-up per album.
            let covered = try library.hasAnyCover() ? try members.filter { try library.hasCover($0.album.id) } : []
            try library.removeAlbums(withIDs: members.map(\.album.id), for: "redo \(text)")
            for member in covered {
                try library.swapCover(of: member.album.id, withKept: slot)
                coverSlot = slot
            }
        case .edit(let changes):
            for member in members {
                try library.replaceAlbum(withIDOf: try member.album.applying(changes), for: "redo \(text)")
            }
        case .move(let to):
            try library.removeAlbums(withIDs: members.map(\.album.id), for: "redo \(text)")
            try library.insert(contentsOf: members.map(\.album), at: to)
        }
    }

    /// Puts every album back as it was, at its position.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        switch action {
        case .delete:
            try library.insert(placed: members.map { ($0.position, $0.album) })
            if let coverSlot {
                for member in members { try library.swapCover(of: member.album.id, withKept: coverSlot) }
            }
        case .edit:
            for member in members { try library.replaceAlbum(withIDOf: member.album, for: "undo \(text)") }
        case .move:
            try library.removeAlbums(withIDs: members.map(\.album.id), for: "undo \(text)")
            try library.insert(placed: members.map { ($0.position, $0.album) })
        }
    }
}
