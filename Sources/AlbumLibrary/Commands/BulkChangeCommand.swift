public import Foundation

/// One change to several albums as one undoable step: `albums delete 3 4 7`, `albums delete
/// QUERY…`, `albums edit QUERY… --genre Jazz`, `albums move QUERY… --to N`.
///
/// The command keeps every album it changed as it was before, with its position, in library
/// order, in the library's `bulk_album` table under its ``batch`` (copied there in the
/// transaction that pushes it): the history row names the batch and the count, a few bytes
/// whatever the number of albums. Redo finds the albums by id; undo puts back exactly the albums
/// and positions it kept, each way in one statement (deleted albums go in again with one
/// `INSERT … SELECT`, their keys found in one walk through the library; edited ones get their
/// values back with one `UPDATE … FROM`). The rows leave the table with the step's entry.
///
/// Steps recorded before that table (command version 1, library schema version 4) carry their
/// albums in the history row (``members``) and undo and redo from there.
/// ``LibrarySession`` decides which albums inside the write transaction.
public struct BulkChangeCommand: Sendable, Hashable {
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
    /// The albums it touches, in ascending position order, as the command was made (what
    /// ``LibrarySession/deleteAlbums(_:expecting:)`` and its siblings return); empty in a command
    /// read back from the history, whose albums are in the library's `bulk_album` table.
    public var members: [Member]
    /// The number of albums the change touches.
    public private(set) var count: Int
    /// The id the albums are kept under in the library's `bulk_album` table (and a delete's
    /// stored cover images in `kept_cover`), given when the command first runs; `nil` for a step
    /// recorded before that table, whose albums are its ``members``.
    public private(set) var batch: UUID?
    /// Where a step recorded before the `bulk_album` table keeps the stored cover images of the
    /// albums it deleted, for its undo (`nil` when none had one, and for later steps, which keep
    /// them under their ``batch``).
    public var coverSlot: UUID?
    /// Whether the albums are in the history row (a step read back in the format of command
    /// version 1).
    private var membersInRow = false
    /// The columns an edit wrote, known once it ran (its undo writes the same).
    private var editedColumns: LibraryAPI.EditedColumns?

    /// Creates the command.
    ///
    /// - Parameters:
    ///   - action: What the change does.
    ///   - members: The albums, as they are now, with their positions; sorted here.
    public init(action: Action, members: [Member]) {
        self.action = action
        self.members = members.sorted { $0.position < $1.position }
        self.count = members.count
    }

    /// "Delete 12 albums", "Edit 3 albums", "Move 2 albums to position 5".
    public var text: String {
        let albums = "\(count) album\(count == 1 ? "" : "s")"
        switch action {
        case .delete: return "Delete \(albums)"
        case .edit: return "Edit \(albums)"
        case .move(let to): return "Move \(albums) to position \(to)"
        }
    }

    /// Makes the change; the first time, keeps the albums as they are in the `bulk_album` table.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when an album is no longer there or a field is invalid.
    public mutating func redo(on library: LibraryAPI) throws {
        if membersInRow { return try redoFromRow(on: library) }
        let operation = "redo \(text)"
        let batch: UUID
        let fresh: Bool
        if let known = self.batch {
            batch = known
            fresh = false
        } else {
            batch = UUID()
            try library.stageBulk(batch, members.map { ($0.position, $0.album.id) }, for: operation)
            self.batch = batch
            fresh = true
        }
        switch action {
        case .delete:
            try library.keepCoversOfStagedAlbums(batch)
            try library.removeStagedAlbums(batch, count: count, for: operation)
        case .edit(let changes):
            // A command just made knows its albums; one read back reads them from the table.
            let before = fresh ? members.map(\.album) : try library.stagedAlbums(batch)
            try LibraryAPI.expect(before.count == count, operation)
            let after = try before.map { try $0.applying(changes) }
            let columns = LibraryAPI.EditedColumns(before: before, after: after)
            try library.setValues(after, columns: columns, for: operation)
            editedColumns = columns
        case .move(let to):
            try library.removeStagedAlbums(batch, count: count, for: operation)
            try library.insertStagedAlbums(batch, at: Array(to..<(to + count)), for: operation)
        }
    }

    /// Puts every album back as it was, at its position.
    ///
    /// - Parameter library: The receiver.
    /// - Throws: ``LibraryError`` when the library no longer matches.
    public mutating func undo(on library: LibraryAPI) throws {
        if membersInRow { return try undoFromRow(on: library) }
        let operation = "undo \(text)"
        guard let batch else {
            throw LibraryError(.storage, "cannot \(operation): the step never ran, so it kept no albums")
        }
        switch action {
        case .delete:
            let positions = try library.stagedPositions(batch, count: count, for: operation)
            try library.insertStagedAlbums(batch, at: positions, for: operation)
            try library.restoreCovers(batch)
        case .edit:
            try library.restoreStagedValues(batch, count: count, columns: editedColumns ?? .all, for: operation)
        case .move:
            let positions = try library.stagedPositions(batch, count: count, for: operation)
            try library.removeStagedAlbums(batch, count: count, for: operation)
            try library.insertStagedAlbums(batch, at: positions, for: operation)
        }
    }

    /// Deletes what the step keeps outside the library: its albums and a delete's cover images
    /// (the step left the history).
    func discard(on library: LibraryAPI) throws {
        if let batch { try library.discardStagedBulk(batch) }
        if let coverSlot { try library.discardKeptCovers(coverSlot) }
    }

    // MARK: - Steps recorded with their albums in the history row (command version 1)

    private mutating func redoFromRow(on library: LibraryAPI) throws {
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
            try library.setValues(
                try members.map { try $0.album.applying(changes) }, columns: .all, for: "redo \(text)")
        case .move(let to):
            try library.removeAlbums(withIDs: members.map(\.album.id), for: "redo \(text)")
            try library.insert(contentsOf: members.map(\.album), at: to)
        }
    }

    private mutating func undoFromRow(on library: LibraryAPI) throws {
        switch action {
        case .delete:
            try library.insert(placed: members.map { ($0.position, $0.album) })
            if let coverSlot {
                for member in members { try library.swapCover(of: member.album.id, withKept: coverSlot) }
            }
        case .edit:
            try library.setValues(members.map(\.album), columns: .all, for: "undo \(text)")
        case .move:
            try library.removeAlbums(withIDs: members.map(\.album.id), for: "undo \(text)")
            try library.insert(placed: members.map { ($0.position, $0.album) })
        }
    }
}

extension BulkChangeCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case action, batch, count, columns, members, coverSlot
    }

    /// Reads either stored shape: a batch and a count (command version 2), or the albums
    /// themselves (version 1).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when neither shape is there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(Action.self, forKey: .action)
        coverSlot = try container.decodeIfPresent(UUID.self, forKey: .coverSlot)
        if let batch = try container.decodeIfPresent(UUID.self, forKey: .batch) {
            self.batch = batch
            count = try container.decode(Int.self, forKey: .count)
            editedColumns = try container.decodeIfPresent(LibraryAPI.EditedColumns.self, forKey: .columns)
            members = []
        } else {
            members = try container.decode([Member].self, forKey: .members)
            count = members.count
            membersInRow = true
        }
    }

    /// Writes the batch and the count; a step read back in version 1's shape keeps that shape.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: The encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(action, forKey: .action)
        if membersInRow || batch == nil {
            try container.encode(members, forKey: .members)
        } else {
            try container.encode(batch, forKey: .batch)
            try container.encode(count, forKey: .count)
            try container.encodeIfPresent(editedColumns, forKey: .columns)
        }
        try container.encodeIfPresent(coverSlot, forKey: .coverSlot)
    }
}
