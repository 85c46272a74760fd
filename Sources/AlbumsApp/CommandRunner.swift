import AlbumLibrary
import CommandStore
import Foundation

/// Runs one parsed command against an open library and prints what it did.
struct CommandRunner {
    let session: LibrarySession
    let options: GlobalOptions
    let console: Console

    private var library: LibraryAPI { session.library }

    func run(_ command: AlbumsCommand) throws {
        switch command {
        case .interactive, .list:
            let albums = try library.albums()
            let rows = albums.enumerated().map { (position: $0.offset + 1, album: $0.element) }
            let current = try library.currentAlbumID()
            console.write(
                options.json
                    ? AlbumFormatter.listJSON(rows, currentID: current)
                    : AlbumFormatter.listText(rows, currentID: current)
            )
        case .show(let position):
            let row = (position: position, album: try library.album(at: position))
            console.write(options.json ? AlbumFormatter.showJSON(row) : AlbumFormatter.showText(row))
        case .add(let album, let at):
            let command = try session.add(album, at: at)
            say("Added \(DisplayText.quoted(command.album.title)) (position \(command.position))")
        case .edit(let position, let changes):
            // The title as the edit left it, from what the command recorded in its transaction.
            let command = try session.edit(at: position, changes: changes)
            let title = (try? command.before?.applying(changes))?.title ?? command.before?.title ?? ""
            say("Edited \(DisplayText.quoted(title)) (position \(position))")
        case .move(let from, let to):
            let command = try session.move(from: from, to: to)
            say("Moved \(DisplayText.quoted(command.title ?? "")) from position \(from) to \(to)")
        case .delete(let position):
            let command = try session.delete(at: position)
            say("Deleted \(DisplayText.quoted(command.album?.title ?? "")) (position \(position))")
        case .undo(let count):
            for record in try session.undo(count: count) {
                say("Undid \(DisplayText.sanitized(record.text))")
            }
        case .redo(let count):
            for record in try session.redo(count: count) {
                say("Redid \(DisplayText.sanitized(record.text))")
            }
        case .history:
            let history = try session.historySteps()
            console.write(
                options.json
                    ? AlbumFormatter.historyJSON(history.records.map(\.text), current: history.current)
                    : AlbumFormatter.historyText(history.records.map(\.text), current: history.current)
            )
        case .importAlbums(let source):
            try importAlbums(from: source)
        case .export(let destination):
            try export(to: destination)
        case .help, .version:
            break
        }
    }

    private func say(_ line: String) {
        console.write(line + "\n")
    }

    private func importAlbums(from source: String) throws {
        let data: Data
        let name = source == "-" ? "standard input" : source
        if source == "-" {
            do {
                data = try console.readInput()
            } catch {
                throw LibraryError(.malformedFile, "cannot read \(name): \(Self.reason(error))")
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
        let albums: [Album]
        do {
            albums = try AlbumFile.decode(data)
        } catch {
            throw LibraryError(error.code, "\(name): \(error.message)")
        }
        guard !albums.isEmpty else {
            throw LibraryError(.malformedFile, "\(name): no albums to import (the array is empty)")
        }
        let bar =
            console.errorIsTerminal && albums.count >= ProgressBar.threshold
            ? ProgressBar(total: albums.count, console: console) : nil
        let command: ImportAlbumsCommand
        do {
            command = try session.importAlbums(albums, progress: bar.map { bar in { bar.update($0) } })
        } catch let error as LibraryError {
            bar?.finish()
            throw LibraryError(error.code, "\(name): \(error.message)")
        }
        bar?.finish()
        let first = command.firstPosition ?? 1
        let last = first + albums.count - 1
        let positions = albums.count == 1 ? "position \(first)" : "positions \(first)–\(last)"
        say("Imported \(albums.count) album\(albums.count == 1 ? "" : "s") (\(positions))")
    }

    private func export(to destination: String?) throws {
        let albums = try library.albums()
        let data = AlbumFile.encode(albums)
        guard let destination, destination != "-" else {
            console.write(String(decoding: data, as: UTF8.self))
            return
        }
        do {
            try UserFile.checkExportDestination(destination)
        } catch {
            throw LibraryError(.storage, "cannot export to \(destination): \(error.reason)")
        }
        do {
            try UserFile.replaceContents(atPath: destination, with: data)
        } catch {
            throw LibraryError(.storage, "cannot export to \(destination): \(error.reason); the file was not changed")
        }
        say("Exported \(albums.count) album\(albums.count == 1 ? "" : "s") to \(DisplayText.sanitized(destination))")
    }

    private static func reason(_ error: any Error) -> String {
        if let refusal = error as? UserFile.Refusal { return refusal.reason }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return nsError.localizedDescription
    }
}
