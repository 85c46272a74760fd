import Foundation
import SQLiteDatabase

// Many albums put in at given positions in one pass (a bulk step's undo, a bulk move): each run
// of consecutive positions gets its sort keys in one go, found by stepping from the album put in
// before it, so the walk through the sort-key index covers the library once, not once per album.

extension LibraryAPI {
    /// Inserts albums so that each ends up at its position; the albums already in the library
    /// keep their order around them.
    ///
    /// Inserting them one by one with ``insert(_:at:)`` in ascending position order gives the same
    /// library, at the cost of a walk to each position: this walks the library once.
    ///
    /// - Parameter placed: The albums, in ascending position order, no position twice; each
    ///   position from 1 to the number of albums there are once the ones before it are in, plus 1.
    /// - Throws: ``LibraryError/Code/positionOutOfRange`` or ``LibraryError/Code/invalidValue``
    ///   (a position out of order, an id taken), or `DatabaseError`; call it inside a transaction
    ///   to make it all or nothing.
    /// - Complexity: O(*n* + *m* log *n*) for *m* albums, plus O(*n*) on the rare occasions keys
    ///   are spread out.
    func insert(placed: [(position: Int, album: Album)]) throws {
        var previous: Previous?
        var start = placed.startIndex
        while start < placed.endIndex {
            // The run of consecutive positions from `start`, at most `maximumRun` long.
            var end = start + 1
            while end < placed.endIndex, placed[end].position == placed[end - 1].position + 1,
                end - start < Self.maximumRun
            {
                end += 1
            }
            let run = placed[start..<end]
            if let previous, run[start].position <= previous.position {
                throw LibraryError(
                    .invalidValue,
                    "position \(run[start].position) follows position \(previous.position): the positions must ascend")
            }
            var keys = try sortKeys(count: run.count, at: run[start].position, after: previous)
            if keys == nil {
                // The neighbours are too close for the run: spread every key out, then look again.
                try spreadKeys()
                if let last = previous { previous?.key = try sortKey(of: last.id) }
                keys = try sortKeys(count: run.count, at: run[start].position, after: previous)
            }
            guard let keys else { throw LibraryError(.storage, "cannot place \(run.count) albums: no room") }
            for (member, key) in zip(run, keys) { try insert(member.album, sortKey: key) }
            previous = Previous(position: run[end - 1].position, key: keys[keys.count - 1], id: run[end - 1].album.id)
            start = end
        }
    }

    /// Inserts albums at consecutive positions starting at `position`, in order.
    ///
    /// - Parameters:
    ///   - albums: The albums; none of their ids may be in the library.
    ///   - position: From 1 to ``count()`` + 1; the last album ends at `position + albums.count - 1`.
    /// - Throws: What ``insert(placed:)`` throws.
    /// - Complexity: O(*position* + *m* log *n*) for *m* albums.
    func insert(contentsOf albums: [Album], at position: Int) throws {
        try insert(placed: albums.enumerated().map { (position: position + $0.offset, album: $0.element) })
    }

    /// The longest run given keys at once: after a spread the gap between two neighbours
    /// (``keyGap``) holds it.
    static var maximumRun: Int { Int(keyGap / 2) }

    /// The album put in last, at `position` with `key`.
    private struct Previous {
        var position: Int
        var key: Int64
        var id: UUID
    }

    private func sortKey(of id: UUID) throws -> Int64 {
        guard let row = try database.fetchOne("SELECT sort_key FROM album WHERE id = ?", [id.uuidString]) else {
            throw LibraryError(.storage, "an album put back is no longer in the library")
        }
        return try row.decode(Int64.self, at: 0)
    }

    /// `count` ascending keys for albums at `position`…, between the albums that will be their
    /// neighbours, or `nil` when the gap between those is too small.
    private func sortKeys(count: Int, at position: Int, after previous: Previous?) throws -> [Int64]? {
        guard position >= 1 else { throw try outOfRange(position, limit: self.count() + 1) }
        let before: Int64?
        let after: Int64?
        if let previous {
            // Step on from the album put in last: the albums between it and `position` are there already.
            let between = position - previous.position - 1
            if between == 0 {
                before = previous.key
                after = try database.fetchOne(
                    "SELECT sort_key FROM album WHERE sort_key > ? ORDER BY sort_key LIMIT 1", [previous.key]
                )?.decode(Int64.self, at: 0)
            } else {
                let rows = try database.fetchAll(
                    "SELECT sort_key FROM album WHERE sort_key > ? ORDER BY sort_key LIMIT 2 OFFSET ?",
                    [previous.key, between - 1]
                ).map { try $0.decode(Int64.self, at: 0) }
                guard let first = rows.first else { throw try outOfRange(position, limit: self.count() + 1) }
                before = first
                after = rows.count > 1 ? rows[1] : nil
            }
        } else {
            let rows = try database.fetchAll(
                "SELECT sort_key FROM album ORDER BY sort_key LIMIT 2 OFFSET ?", [max(0, position - 2)]
            ).map { try $0.decode(Int64.self, at: 0) }
            if position == 1 {
                before = nil
                after = rows.first
            } else {
                guard let first = rows.first else { throw try outOfRange(position, limit: self.count() + 1) }
                before = first
                after = rows.count > 1 ? rows[1] : nil
            }
        }
        let step = Int64(count)
        switch (before, after) {
        case (nil, nil): return (0..<step).map { $0 * Self.keyGap }
        case (let before?, nil): return (1...step).map { before + $0 * Self.keyGap }
        case (nil, let after?): return (0..<step).map { after - (step - $0) * Self.keyGap }
        case (let before?, let after?):
            let gap = (after - before) / (step + 1)
            guard gap >= 1 else { return nil }
            return (1...step).map { before + $0 * gap }
        }
    }
}
