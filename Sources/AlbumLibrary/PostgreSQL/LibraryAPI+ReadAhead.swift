#if PostgreSQL
import Foundation
import PostgreSQLDatabase

// The statements of the reads a change of a server library makes first (``ChangeReads``): sent
// with the history's lock, so the change holds the lock, which every other client's change waits
// for, across fewer round trips.

extension LibraryAPI {
    /// The reads inserting `album` at `position` makes: its neighbours' keys, and whether its id
    /// is taken.
    static func reads(ofInserting album: Album, at position: Int) -> [PostgreSQLStatement] {
        [PostgreSQLAlbums.neighbourKeysRead(ofInsertingAt: position), PostgreSQLAlbums.albumRead(withID: album.id)]
    }

    /// On a server library, makes both reads an insert makes (its neighbours' keys, whether the
    /// id is taken) in one round trip; the insert then finds their rows kept.
    func readTogether(inserting album: Album, at position: Int) throws {
        _ = try server?.connection.read(Self.reads(ofInserting: album, at: position))
    }

    /// On a server library, makes the reads a move makes (the albums at both positions, its new
    /// neighbours' keys) in one round trip.
    func readTogether(moving from: Int, to: Int) throws {
        guard from >= 1, to >= 1, from != to else { return }
        _ = try server?.connection.read(Self.statements(of: .changing(.position(from), movingTo: to)))
    }

    /// The statements of a change's first reads.
    static func statements(of reads: ChangeReads) -> [PostgreSQLStatement] {
        switch reads {
        case .changing(.position(let position), let target):
            var statements = [PostgreSQLAlbums.albumRead(at: position)]
            if let target, target != position {
                // The move's: the album at the target, the count, the new neighbours' keys.
                statements += [
                    PostgreSQLAlbums.albumRead(at: target), PostgreSQLAlbums.countRead,
                    PostgreSQLAlbums.neighbourKeysRead(ofInsertingAt: position < target ? target + 1 : target),
                ]
            }
            return statements
        case .changing:
            return []
        case .adding(_, nil):
            return [PostgreSQLAlbums.countRead]
        case .adding(let album, let position?):
            return Self.reads(ofInserting: album, at: position)
        }
    }
}
#endif
