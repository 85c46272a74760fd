public import Foundation
import SQLiteDatabase

/// The application's own state, kept beside the albums (`app_state`) and outside the history:
/// the current album of the terminal UI, and whether the defaults were ever seeded. No album
/// command reads or writes it.
extension LibraryAPI {

    /// The id of the album the scroller shows, remembered across launches.
    ///
    /// - Returns: The id, or `nil` when none was set or that album is gone.
    public func currentAlbumID() throws -> UUID? {
        #if PostgreSQL
        if let server {
            guard let id = try server.state("current").flatMap(UUID.init(uuidString:)), try contains(id) else {
                return nil
            }
            return id
        }
        #endif
        guard let row = try database.fetchOne("SELECT value FROM app_state WHERE key = 'current'"),
            let text = try row.decode(String?.self, at: 0), let id = UUID(uuidString: text),
            try contains(id)
        else { return nil }
        return id
    }

    /// Remembers which album the scroller shows.
    ///
    /// - Parameter id: The album's id, or `nil` to forget.
    /// - Throws: `DatabaseError`.
    public func setCurrentAlbumID(_ id: UUID?) throws {
        #if PostgreSQL
        if let server { return try server.setState("current", to: id?.uuidString) }
        #endif
        try database.execute(
            "INSERT INTO app_state (key, value) VALUES ('current', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [id?.uuidString]
        )
    }

    /// Adds the five default albums (or `albums`) if this library was never seeded, in one
    /// transaction.
    ///
    /// A library that has been seeded once is never seeded again, even after its albums are
    /// deleted: an empty library stays empty. Seeding with no albums (`albums init --empty`)
    /// marks the library seeded and adds none.
    ///
    /// - Parameter albums: The albums a new library starts with.
    /// - Returns: Whether the library was seeded now (by this call, not another process's).
    /// - Throws: `DatabaseError`.
    @discardableResult
    public func seedDefaultsIfNeeded(with albums: [Album] = Album.defaults()) throws -> Bool {
        #if PostgreSQL
        if let server { return try server.seedIfNeeded(with: albums, gap: Self.keyGap) }
        #endif
        var seeded = false
        // Seeded already (every open but the first): no write transaction, so opening a library
        // never waits for another process's write lock.
        if try database.fetchOne("SELECT 1 FROM app_state WHERE key = 'seeded'") != nil { return false }
        try database.inTransaction {
            if try database.fetchOne("SELECT 1 FROM app_state WHERE key = 'seeded'") != nil {
                return .commit
            }
            try append(contentsOf: albums)
            try database.execute("INSERT INTO app_state (key, value) VALUES ('seeded', '1')")
            seeded = true
            return .commit
        }
        return seeded
    }
}
