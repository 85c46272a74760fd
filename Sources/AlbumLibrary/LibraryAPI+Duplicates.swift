import Foundation
import SQLiteDatabase

// Duplicates for `import`: an album is a duplicate of another when their titles, artists and
// years are equal with case, accents and width aside (SearchText.folded).

extension LibraryAPI {
    /// What makes two albums the same album to an import.
    struct DuplicateKey: Hashable {
        var title: String
        var artist: String
        var year: Int?

        init(_ album: Album) {
            self.init(title: SearchText.folded(album.title), artist: SearchText.folded(album.artist), year: album.year)
        }

        init(title: String, artist: String, year: Int?) {
            self.title = title
            self.artist = artist
            self.year = year
        }
    }

    /// `albums` split into those to import and those skipped: equal to an album in the library, or
    /// to one kept earlier in the list. Each kept album comes with its index in `albums`.
    ///
    /// - Complexity: O(*m*) for *m* albums, plus one pass over the library's rows (only rows whose
    ///   folded title is among the list's are folded further).
    func splittingDuplicates(_ albums: [Album]) throws -> (kept: [(index: Int, album: Album)], skipped: [Album]) {
        let keys = albums.map(DuplicateKey.init)
        let titles = Set(keys.map(\.title))
        var present = Set<DuplicateKey>()
        // Notes the album in a row when its folded title is among the list's.
        func note(searchText text: String, title: String, artist: String, year: Int?) {
            // The search text starts with the folded title and a line feed (SearchText.of).
            let folded: String
            if !title.utf8.contains(10), let end = text.utf8.firstIndex(of: 10) {
                folded = String(text[..<end])
            } else {
                folded = SearchText.folded(title)
            }
            guard titles.contains(folded) else { return }
            present.insert(DuplicateKey(title: folded, artist: SearchText.folded(artist), year: year))
        }
        try forEachDuplicateCandidate(titled: titles, note)
        var kept: [(index: Int, album: Album)] = []
        var skipped: [Album] = []
        kept.reserveCapacity(albums.count)
        for (index, album) in albums.enumerated() {
            if present.insert(keys[index]).inserted {
                kept.append((index, album))
            } else {
                skipped.append(album)
            }
        }
        return (kept, skipped)
    }
}

extension LibraryAPI {
    /// Calls `body` with the search text, title, artist and year of the albums whose folded title
    /// may be among `titles`: every album of a file (one pass over its rows), on a server only
    /// those, read in one statement.
    private func forEachDuplicateCandidate(
        titled titles: Set<String>,
        _ body: (_ searchText: String, _ title: String, _ artist: String, _ year: Int?) -> Void
    ) throws {
        #if PostgreSQL
        if let server {
            for row in try server.duplicateCandidates(titled: titles) {
                body(row.searchText, row.title, row.artist, row.year)
            }
            return
        }
        #endif
        let statement = try database.cachedStatement("SELECT search_text, title, artist, year FROM album")
        try statement.readEachRow { columns in
            body(
                try columns.text(at: 0), try columns.text(at: 1), try columns.text(at: 2),
                columns.isNull(at: 3) ? nil : Int(try columns.integer(at: 3)))
        }
    }

    /// The first album staged under `batch` whose id is already in the library: its place in the
    /// batch (0-based) and its id.
    ///
    /// - Throws: `DatabaseError`.
    func firstClash(inBatch batch: UUID) throws -> (seq: Int, id: String)? {
        #if PostgreSQL
        if let server { return try server.firstClash(inBatch: batch) }
        #endif
        guard
            let clash = try database.fetchOne(
                "SELECT b.seq, b.id FROM import_batch b JOIN album a ON a.id = b.id WHERE b.batch = ? ORDER BY b.seq LIMIT 1",
                [batch.uuidString])
        else { return nil }
        return (try clash.decode(Int.self, at: 0), try clash.decode(String.self, at: 1))
    }
}
