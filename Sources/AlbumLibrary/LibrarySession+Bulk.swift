import CommandStore
public import Foundation

// Changes to several albums as one step. Each resolves its selection inside the write
// transaction (the query evaluated there, never before), refuses there a change that would change
// nothing, and can be held to the albums a caller showed and had confirmed (`expecting`).

extension LibrarySession {
    /// Deletes the albums a selection names when the transaction runs, as one step.
    ///
    /// - Parameters:
    ///   - selection: Several references or a query.
    ///   - expected: The ids the caller showed (and had confirmed), or `nil`; when the selection
    ///     names other albums by then, nothing changes.
    /// - Returns: The command as it ran: its members are the albums deleted, as they were.
    /// - Throws: What ``delete(_:)`` throws for a reference, ``LibraryError/Code/albumNotFound``
    ///   when a query matches no album, ``LibraryError/Code/historyChanged`` when the albums are
    ///   not `expected`, or a storage error; nothing is then recorded.
    @discardableResult
    public func deleteAlbums(
        _ selection: AlbumSelection, expecting expected: Set<UUID>? = nil
    ) throws
        -> BulkChangeCommand
    {
        try push {
            BulkChangeCommand(action: .delete, members: try resolve(selection, expecting: expected))
        }
    }

    /// Edits the albums a selection names when the transaction runs, as one step; albums that
    /// already have the values are left out.
    ///
    /// - Parameters:
    ///   - selection: Several references or a query.
    ///   - changes: The fields to change.
    ///   - expected: As for ``deleteAlbums(_:expecting:)``: the ids of the albums the edit changes.
    /// - Returns: The command as it ran: its members are the albums changed, as they were.
    /// - Throws: What ``deleteAlbums(_:expecting:)`` throws, ``LibraryError/Code/nothingToChange``
    ///   when every album already has those values, or ``LibraryError/Code/invalidValue``.
    @discardableResult
    public func editAlbums(
        _ selection: AlbumSelection, changes: AlbumChanges, expecting expected: Set<UUID>? = nil
    )
        throws -> BulkChangeCommand
    {
        try push {
            let members = try resolve(selection, expecting: nil)
            var changed: [BulkChangeCommand.Member] = []
            for member in members where try member.album.applying(changes) != member.album {
                changed.append(member)
            }
            guard !changed.isEmpty else {
                throw LibraryError(
                    .nothingToChange,
                    members.count == 1
                        ? "the album already has those values: nothing to edit"
                        : "the \(members.count) albums already have those values: nothing to edit")
            }
            try Self.check(changed, expected)
            return BulkChangeCommand(action: .edit(changes), members: changed)
        }
    }

    /// Moves the albums a selection names when the transaction runs, in library order, to
    /// consecutive positions starting at `position`, as one step.
    ///
    /// - Parameters:
    ///   - selection: Several references or a query.
    ///   - position: Where the first goes; the last ends at `position + count - 1`.
    ///   - expected: As for ``deleteAlbums(_:expecting:)``.
    /// - Returns: The command as it ran.
    /// - Throws: What ``deleteAlbums(_:expecting:)`` throws,
    ///   ``LibraryError/Code/positionOutOfRange`` when the albums would run past the end, or
    ///   ``LibraryError/Code/nothingToChange`` when they are there already.
    @discardableResult
    public func moveAlbums(
        _ selection: AlbumSelection, to position: Int, expecting expected: Set<UUID>? = nil
    )
        throws -> BulkChangeCommand
    {
        try push {
            let members = try resolve(selection, expecting: expected)
            let last = try library.count() - members.count + 1
            guard (1...last).contains(position) else {
                throw LibraryError(
                    .positionOutOfRange,
                    "position \(position) is out of range for \(Self.count(members.count)) (1...\(last))")
            }
            guard members.enumerated().contains(where: { $0.element.position != position + $0.offset }) else {
                throw LibraryError(
                    .nothingToChange,
                    members.count == 1
                        ? "the album is at position \(position) already: nothing to move"
                        : "the \(members.count) albums are at positions \(position)… already: nothing to move")
            }
            return BulkChangeCommand(action: .move(to: position), members: members)
        }
    }

    /// The albums a selection names now, as they are, with their positions, in library order:
    /// what `--dry-run` shows and a confirmation asks about. A change made later resolves the
    /// selection again, in its own transaction.
    ///
    /// - Parameter selection: Several references or a query.
    /// - Returns: The albums and positions.
    /// - Throws: What the changes throw for the selection.
    public func albums(in selection: AlbumSelection) throws -> [BulkChangeCommand.Member] {
        var members: [BulkChangeCommand.Member] = []
        try library.inOneSnapshot { members = try resolve(selection, expecting: nil) }
        return members
    }

    /// The selection's albums as committed now, refused when it names none, one twice, or other
    /// albums than `expected`.
    private func resolve(
        _ selection: AlbumSelection, expecting expected: Set<UUID>?
    ) throws
        -> [BulkChangeCommand.Member]
    {
        var members: [BulkChangeCommand.Member] = []
        switch selection {
        case .albums(let references):
            var seen: [UUID: Int] = [:]
            for reference in references {
                let found = try library.find(reference)
                if let earlier = seen[found.album.id] {
                    throw LibraryError(
                        .invalidValue,
                        "“\(found.album.title)” (position \(found.position)) is named twice (album \(earlier + 1) and \(members.count + 1))"
                    )
                }
                seen[found.album.id] = members.count
                members.append(BulkChangeCommand.Member(position: found.position, album: found.album))
            }
        case .matching(let query):
            try library.forEachAlbum(matching: query, sort: .position) { rows in
                members += rows.map { BulkChangeCommand.Member(position: $0.position, album: $0.album) }
            }
            guard !members.isEmpty else {
                throw LibraryError(.albumNotFound, "no album matches ‘\(LibraryError.excerpt(of: query.description))’")
            }
        }
        try Self.check(members, expected)
        return members.sorted { $0.position < $1.position }
    }

    private static func check(_ members: [BulkChangeCommand.Member], _ expected: Set<UUID>?) throws {
        guard let expected, Set(members.map(\.album.id)) != expected else { return }
        throw LibraryError(
            .historyChanged,
            "the library changed since the \(count(expected.count)) were shown: nothing changed; run the command again")
    }

    private static func count(_ number: Int) -> String { number == 1 ? "1 album" : "\(number) albums" }
}
