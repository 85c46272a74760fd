import CommandStore
import Foundation
import SQLiteDatabase

extension LibrarySession {
    /// Appends albums as one step, without those that are already in the library or earlier in
    /// the list (unless `keepingDuplicates`); with `dryRun`, decides the same and changes nothing.
    ///
    /// An album is a duplicate when its title, artist and year equal another's with case and
    /// accents aside. Which albums are duplicates, and whether one of those kept has an id the
    /// library holds, is decided inside the write transaction that pushes the step, from what is
    /// committed then; a dry run decides it in a transaction it rolls back.
    ///
    /// ```swift
    /// let outcome = try session.importAlbums(albums, keepingDuplicates: false)
    /// print(outcome.albums.count, "imported,", outcome.skipped.count, "skipped")
    /// ```
    ///
    /// - Parameters:
    ///   - albums: The albums, validated, in the file's order.
    ///   - keepingDuplicates: Whether to import duplicates too (then every album is imported, as
    ///     ``importAlbums(_:progress:)`` does).
    ///   - dryRun: Whether to decide only, writing nothing.
    ///   - progress: Called now and then with the number of albums staged so far.
    /// - Returns: What the import did (its ``ImportOutcome/command`` is `nil` for a dry run).
    /// - Throws: ``LibraryError/Code/nothingToChange`` when every album is a duplicate (nothing is
    ///   recorded), ``LibraryError/Code/invalidValue`` naming the first album (by its place in
    ///   `albums`) whose id is already in the library, or a storage error.
    public func importAlbums(
        _ albums: [Album], keepingDuplicates: Bool, dryRun: Bool = false, progress: ((Int) -> Void)? = nil
    ) throws -> ImportOutcome {
        var outcome: ImportOutcome?
        if dryRun {
            try inRolledBackTransaction {
                let staged = try stageNewAlbums(albums, keepingDuplicates: keepingDuplicates, progress: nil)
                outcome = ImportOutcome(
                    command: nil, albums: staged.kept, skipped: staged.skipped,
                    firstPosition: try library.count() + 1)
            }
        } else {
            let command = try push {
                let staged = try stageNewAlbums(albums, keepingDuplicates: keepingDuplicates, progress: progress)
                outcome = ImportOutcome(
                    command: nil, albums: staged.kept, skipped: staged.skipped,
                    firstPosition: try library.count() + 1)
                return ImportAlbumsCommand(
                    batch: staged.batch, count: staged.kept.count, firstTitle: staged.kept.first?.title ?? "")
            }
            outcome?.command = command
        }
        guard let outcome else { preconditionFailure("the import's transaction returned without deciding") }
        return outcome
    }

    /// Runs `body` in a write transaction rolled back at its end: a dry run decides as the change
    /// would, from what is committed then, and writes nothing.
    private func inRolledBackTransaction(_ body: () throws -> Void) throws {
        #if PostgreSQL
        if let server = library.server { return try server.inRolledBackTransaction(body) }
        #endif
        try database.inTransaction(.immediate) {
            try body()
            return .rollback
        }
    }

    /// Stages the albums to import in a new batch, inside the caller's transaction.
    private func stageNewAlbums(
        _ albums: [Album], keepingDuplicates: Bool, progress: ((Int) -> Void)?
    ) throws -> (batch: UUID, kept: [Album], skipped: [Album]) {
        let split =
            keepingDuplicates
            ? (kept: albums.enumerated().map { (index: $0.offset, album: $0.element) }, skipped: [])
            : try library.splittingDuplicates(albums)
        guard !split.kept.isEmpty else {
            let all = albums.count == 1 ? "its one album is" : "all \(albums.count) albums are"
            throw LibraryError(
                .nothingToChange,
                "\(all) already in the library (--allow-duplicates imports them): nothing to import")
        }
        let kept = split.kept.map(\.album)
        let batch = try library.stageImport(kept, progress: progress)
        if let clash = try library.firstClash(inBatch: batch) {
            throw LibraryError(
                .invalidValue, "album \(split.kept[clash.seq].index + 1): id \(clash.id) is already in the library")
        }
        return (batch, kept, split.skipped)
    }
}
