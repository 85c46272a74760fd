import AlbumLibrary
import Foundation

/// `albums import [--replace] FILE|-`: reads and checks the whole file first, then appends its
/// albums (or replaces the library with them) as one step, so a bad file changes nothing.
struct AlbumImport {
    let session: LibrarySession
    let console: Console

    func run(from source: String, replace: Bool, report: (ChangeResult, String) -> Void) throws {
        let name = source == "-" ? "standard input" : source
        let albums = try read(source, name: name)
        guard !albums.isEmpty || replace else {
            throw LibraryError(.malformedFile, "\(name): no albums to import (the array is empty)")
        }
        let bar =
            console.errorIsTerminal && albums.count >= ProgressBar.threshold
            ? ProgressBar(total: albums.count, console: console) : nil
        let progress = bar.map { bar in { (done: Int) in bar.update(done) } }
        defer { bar?.finish() }
        let plural = albums.count == 1 ? "" : "s"
        do {
            if replace {
                let command = try session.replaceAlbums(with: albums, progress: progress)
                let before = command.replacedCount ?? 0
                report(
                    ChangeResult(command: "import", step: command.text, count: albums.count),
                    "Replaced the library's \(before) album\(before == 1 ? "" : "s") with \(albums.count) album\(plural)"
                )
                return
            }
            let command = try session.importAlbums(albums, progress: progress)
            let first = command.firstPosition ?? 1
            let last = first + albums.count - 1
            let positions = albums.count == 1 ? "position \(first)" : "positions \(first)–\(last)"
            report(
                ChangeResult(
                    command: "import", step: command.text, id: albums.count == 1 ? albums[0].id : nil,
                    title: albums.count == 1 ? albums[0].title : nil, position: first, count: albums.count),
                "Imported \(albums.count) album\(plural) (\(positions))")
        } catch let error as LibraryError {
            throw LibraryError(error.code, "\(name): \(error.message)")
        }
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
