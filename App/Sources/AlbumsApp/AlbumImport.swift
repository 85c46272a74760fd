import AlbumLibrary
import Foundation

/// `albums import [--replace] [--allow-duplicates] [--dry-run] FILE|-`: reads and checks the whole
/// file first, then appends its albums (or replaces the library with them) as one step, so a bad
/// file changes nothing. Which albums are duplicates is decided inside the step's transaction.
struct AlbumImport {
    let session: LibrarySession
    let console: Console
    /// Whether a dry run prints JSON (a change's result is printed by the caller's report).
    var json = false

    func run(
        from source: String, replace: Bool, allowDuplicates: Bool = false, dryRun: Bool = false,
        report: (ChangeResult, String) -> Void
    ) throws {
        let name = source == "-" ? "standard input" : source
        let albums = try read(source, name: name)
        guard !albums.isEmpty || replace else {
            throw LibraryError(.malformedFile, "\(name): no albums to import (the array is empty)")
        }
        if dryRun {
            try preview(albums, replace: replace, allowDuplicates: allowDuplicates, name: name)
            return
        }
        let bar =
            console.errorIsTerminal && albums.count >= ProgressBar.threshold
            ? ProgressBar(total: albums.count, console: console) : nil
        let progress = bar.map { bar in { (done: Int) in bar.update(done) } }
        defer { bar?.finish() }
        do {
            if replace {
                let command = try session.replaceAlbums(with: albums, progress: progress)
                let before = command.replacedCount ?? 0
                report(
                    ChangeResult(command: "import", step: command.text, count: albums.count),
                    "Replaced the library's \(before) album\(before == 1 ? "" : "s") with \(Self.albums(albums.count))")
                return
            }
            let outcome = try session.importAlbums(albums, keepingDuplicates: allowDuplicates, progress: progress)
            let imported = outcome.albums
            let first = outcome.firstPosition
            let skipped = outcome.skipped.count
            report(
                ChangeResult(
                    command: "import", step: outcome.command?.text, id: imported.count == 1 ? imported[0].id : nil,
                    title: imported.count == 1 ? imported[0].title : nil, position: first, count: imported.count,
                    skipped: skipped),
                "Imported \(Self.albums(imported.count)) (\(Self.positions(first, imported.count)))"
                    + Self.skippedNote(skipped, done: true))
        } catch let error as LibraryError {
            throw LibraryError(error.code, "\(name): \(error.message)")
        }
    }

    /// `--dry-run`: what the import would do, decided as the import would decide it, and nothing written.
    private func preview(_ albums: [Album], replace: Bool, allowDuplicates: Bool, name: String) throws {
        struct Preview: Encodable {
            var command = "import"
            var dryRun = true
            var replace: Bool
            var count: Int
            var skipped: Int?
            var position: Int?
            var albums: [Album]
            var duplicates: [Album]?
        }
        if replace {
            let before = try session.library.count()
            console.write(
                json
                    ? AlbumFormatter.json(Preview(replace: true, count: albums.count, albums: albums))
                    : "Would replace the library's \(Self.albums(before)) with \(Self.albums(albums.count)); "
                        + "nothing was changed\n")
            return
        }
        let outcome: ImportOutcome
        do {
            outcome = try session.importAlbums(albums, keepingDuplicates: allowDuplicates, dryRun: true)
        } catch let error as LibraryError {
            throw LibraryError(error.code, "\(name): \(error.message)")
        }
        let imported = outcome.albums
        if json {
            console.write(
                AlbumFormatter.json(
                    Preview(
                        replace: false, count: imported.count, skipped: outcome.skipped.count,
                        position: outcome.firstPosition, albums: imported, duplicates: outcome.skipped)))
            return
        }
        var text =
            "Would import \(Self.albums(imported.count))"
            + (imported.isEmpty ? "" : " (\(Self.positions(outcome.firstPosition, imported.count)))")
            + Self.skippedNote(outcome.skipped.count, done: false) + "; nothing was changed\n"
        if !imported.isEmpty {
            text += AlbumFormatter.listText(
                imported, positions: Array(outcome.firstPosition..<(outcome.firstPosition + imported.count)),
                currentID: nil)
        }
        console.write(text)
    }

    private static func albums(_ count: Int) -> String {
        "\(count) album\(count == 1 ? "" : "s")"
    }

    private static func positions(_ first: Int, _ count: Int) -> String {
        count == 1 ? "position \(first)" : "positions \(first)–\(first + count - 1)"
    }

    /// "; skipped 2 duplicates (…)", or nothing when none was skipped.
    private static func skippedNote(_ skipped: Int, done: Bool) -> String {
        guard skipped > 0 else { return "" }
        let noun = skipped == 1 ? "duplicate" : "duplicates"
        return "; \(done ? "skipped" : "would skip") \(skipped) \(noun) (--allow-duplicates imports them)"
    }

    private func read(_ source: String, name: String) throws -> [Album] {
        let data: Data
        if source == "-" {
            do {
                data = try console.readInput()
            } catch {
                throw LibraryError(.malformedFile, "cannot read \(name): \(ActionRunner.reason(error))")
            }
            // readInput stops one byte past the limit: an endless stream ends here.
            guard data.count <= AlbumFile.maximumFileSize else {
                throw LibraryError(.malformedFile, "cannot read \(name): \(UserFile.tooLargeInput.reason)")
            }
        } else {
            do {
                // Not an album file; and closing a descriptor of the library or its index would
                // drop the locks this process's connection holds on them.
                try UserFile.requireNotPartOfLibrary(source, library: session.path)
                data = try UserFile.contents(atPath: source)
            } catch {
                throw LibraryError(.malformedFile, "cannot import \(name): \(error.reason)")
            }
        }
        do {
            return try AlbumFile.decode(data)
        } catch {
            throw LibraryError(error.code, "\(name): \(error.message)")
        }
    }
}
