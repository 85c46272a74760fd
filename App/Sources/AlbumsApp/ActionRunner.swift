import AlbumLibrary
import CommandKit
import CommandStore
import Foundation

/// Runs one parsed action against an open library and prints what it did: a line of text, or
/// with `--json` an object scripts can read.
struct ActionRunner {
    let session: LibrarySession
    let options: GlobalOptions
    let console: Console
    /// The terminal's width when standard output is one, for fitting tables.
    var terminalWidth: Int?

    private var library: LibraryAPI { session.library }

    func run(_ action: AlbumsAction) throws {
        switch action {
        case .interactive:
            try list(query: nil, order: .position)
        case .list(let query, let order, nil):
            try list(query: query, order: order)
        case .list(let query, let order, let template?):
            try library.inOneSnapshot {
                let current = try library.currentAlbumID()
                try library.forEachAlbum(matching: query, sort: order) { rows in
                    var text = ""
                    for row in rows {
                        text += template.line(
                            for: row.album, position: row.position, isCurrent: row.album.id == current)
                        text += "\n"
                    }
                    console.write(text)
                }
            }
        case .show(let album):
            var shown: (row: AlbumFormatter.Row, cover: CoverSummary?)?
            try library.inOneSnapshot {
                let row = try library.find(album)
                shown = (row, try library.coverSummary(of: row.album.id))
            }
            guard let shown else { return }
            console.write(
                options.json
                    ? AlbumFormatter.showJSON(shown.row, cover: shown.cover)
                    : AlbumFormatter.showText(shown.row, cover: shown.cover))
        case .add(let album, let at):
            let command = try session.add(album, at: at)
            report(
                ChangeResult(
                    command: "add", step: command.text, id: command.album.id, title: command.album.title,
                    position: command.position),
                "Added \(DisplayText.quoted(command.album.title)) (position \(command.position))")
        case .edit(let album, let changes):
            try edit(album, changes)
        case .move(let album, let to):
            let change = try session.move(album, to: to)
            let moved = change.command
            report(
                ChangeResult(
                    command: "move", step: moved.text, id: change.album.id, title: change.album.title,
                    position: moved.to),
                "Moved \(DisplayText.quoted(change.album.title)) from position \(moved.from) to \(moved.to)")
        case .delete(let album):
            let change = try session.delete(album)
            report(
                ChangeResult(
                    command: "delete", step: change.command.text, id: change.album.id, title: change.album.title,
                    position: change.position),
                "Deleted \(DisplayText.quoted(change.album.title)) (position \(change.position))")
        case .bulk(let request):
            try runBulk(request)
        case .setCover(let album, let file):
            try setCover(album, file: file)
        case .removeCover(let album):
            let change = try session.setCover(album, to: nil)
            report(
                ChangeResult(
                    command: "cover", step: change.command.text, id: change.album.id, title: change.album.title,
                    position: change.position),
                "Removed the cover of \(DisplayText.quoted(change.album.title)) (position \(change.position))")
        case .exportCover(let album, let file, let force):
            try exportCover(album, to: file, force: force)
        case .undo(let count):
            let texts = try session.undo(count: count).map(\.text)
            report(
                ChangeResult(command: "undo", steps: texts),
                texts.map { "Undid \(DisplayText.sanitized($0))" }.joined(separator: "\n"))
        case .redo(let count):
            let texts = try session.redo(count: count).map(\.text)
            report(
                ChangeResult(command: "redo", steps: texts),
                texts.map { "Redid \(DisplayText.sanitized($0))" }.joined(separator: "\n"))
        case .mine(let redoing):
            let author = session.history.author ?? ""
            let result = try redoing ? session.redoMine(author: author) : session.undoMine(author: author)
            let line: String
            switch result {
            case .reverted(let command):
                let later = redoing ? "" : ", keeping the later changes"
                line =
                    "\(redoing ? "Redid" : "Undid") your \(DisplayText.sanitized(command.change.text)) (step \(command.step))\(later)"
            case .undone(let record):
                line = "Undid your \(DisplayText.sanitized(record.text))"
            case .redone(let record):
                line = "Redid your \(DisplayText.sanitized(record.text))"
            }
            report(ChangeResult(command: redoing ? "redo" : "undo", step: result.text), line)
        case .undoTo(let target):
            let (node, jump) = try session.jump(to: target)
            let lines =
                jump.undone.map { "Undid \(DisplayText.sanitized($0.text))" }
                + jump.redone.map { "Redid \(DisplayText.sanitized($0.text))" }
            let summary = "Now at step \(node)"
            report(
                ChangeResult(command: "undo", steps: jump.undone.map(\.text) + jump.redone.map(\.text)),
                (lines + [summary]).joined(separator: "\n"))
        case .historyTree:
            let tree = try session.historyTree()
            console.write(
                options.json
                    ? AlbumFormatter.historyTreeJSON(tree.nodes, current: tree.current)
                    : AlbumFormatter.historyTree(tree.nodes, current: tree.current))
        case .history(let limit):
            // Read-only: the --author given names whose steps to show (never the default author).
            let listing = try session.stepListing(
                last: limit,
                by: try options.author.map { name throws(UsageError) in
                    try AuthorName.checked(name, source: "--author")
                })
            let steps = listing.steps
            // Every figure from the steps' own snapshot: another process may commit meanwhile.
            console.write(
                options.json
                    ? AlbumFormatter.historyJSON(
                        steps, current: listing.current, count: listing.count, revision: listing.revision)
                    : AlbumFormatter.historyText(
                        steps, current: steps.last(where: \.isDone)?.number ?? (steps.first.map { $0.number - 1 } ?? 0))
            )
        case .repairHistory:
            let repaired = try session.repairHistory()
            let verb = repaired.wasUndo ? "undo" : "redo"
            report(
                ChangeResult(command: "history", step: SkippedStepCommand(skippedText: repaired.text, reason: "").text),
                "Set aside step \(repaired.step), \(DisplayText.quoted(repaired.text)): its \(verb) no longer applied "
                    + "(\(DisplayText.sanitized(repaired.reason))); undo and redo now pass over it")
        case .importAlbums(let source, let replace, let allowDuplicates, let dryRun):
            let albumImport = AlbumImport(session: session, console: console, json: options.json)
            try albumImport.run(from: source, replace: replace, allowDuplicates: allowDuplicates, dryRun: dryRun) {
                result, line in report(result, line)
            }
        case .export(let destination, let force):
            try export(to: destination, force: force)
        case .info:
            let info = LibraryInfo(
                path: session.path, albums: try library.count(), historySteps: session.history.count,
                done: session.history.index)
            console.write(
                options.json
                    ? AlbumFormatter.infoJSON(info)
                    : """
                    Library:  \(DisplayText.sanitized(info.path))
                    Albums:   \(info.albums)
                    History:  \(info.historySteps) step\(info.historySteps == 1 ? "" : "s") (\(info.done) done)

                    """)
        case .stats:
            let statistics = try session.statistics()
            console.write(options.json ? AlbumFormatter.json(statistics) : AlbumFormatter.statsText(statistics))
        case .output(let text):
            console.write(text)
        case .initLibrary:
            // Run by AlbumsApp before any library is opened (LibraryCreation): nothing to do on an open one.
            break
        case .serve:
            // Long-running and asynchronous: `AlbumsApp` runs it (`AlbumsApp+Serve.swift`).
            throw UsageError("serve runs on its own, not as a step of another command")
        }
    }

    /// Lists in bounded memory, whatever the library's size: the rows are read a batch at a time
    /// and written as they come (text in two passes, one to measure the columns), all in one
    /// snapshot of the library.
    private func list(query: AlbumQuery?, order: AlbumSort) throws {
        try library.inOneSnapshot {
            let current = try library.currentAlbumID()
            if options.json {
                var writer = AlbumFormatter.ListJSONWriter()
                try library.forEachAlbum(matching: query, sort: order) { rows in
                    let covers = try library.coverSummaries(of: rows.map(\.album.id))
                    console.write(writer.text(for: rows, currentID: current, covers: covers))
                }
                console.write(writer.end())
                return
            }
            var table = AlbumFormatter.ListTable()
            if query == nil {
                // The whole library: measured from the stored bytes, no album made.
                try library.forEachAlbumText { title, artist, genre, hasYear in
                    table.measure(
                        title: title, artist: artist, genre: genre, hasYear: hasYear, position: table.rows + 1)
                }
            } else {
                try library.forEachAlbum(matching: query, sort: .position) { rows in
                    for row in rows { table.measure(row.album, position: row.position) }
                }
            }
            guard table.rows > 0 else {
                console.write(
                    query.map { "No albums match \(DisplayText.quoted(Self.shown($0))).\n" } ?? "No albums.\n")
                return
            }
            table.fit(width: terminalWidth)
            var text: [UInt8] = []
            try library.forEachAlbum(matching: query, sort: order) { rows in
                text.removeAll(keepingCapacity: true)
                for row in rows { table.appendLine(row.album, position: row.position, currentID: current, to: &text) }
                console.write(String(decoding: text, as: UTF8.self))
            }
        }
    }

    /// A query as a message quotes it: a `--search` text as it was typed, anything else in the language.
    private static func shown(_ query: AlbumQuery) -> String {
        if case .term(.words(let text)) = query.expression { return text }
        return query.description
    }

    private func edit(_ album: AlbumReference, _ changes: AlbumChanges) throws {
        let change = try session.edit(album, changes: changes)
        // The title as the edit left it: the album as the transaction found it, with the changes.
        let title = (try? change.album.applying(changes))?.title ?? change.album.title
        report(
            ChangeResult(
                command: "edit", step: change.command.text, id: change.album.id, title: title,
                position: change.position),
            "Edited \(DisplayText.quoted(title)) (position \(change.position))")
    }

    /// Prints a change's result: its JSON object with `--json`, else its line.
    ///
    /// Called right after the change committed, so the history's revision is the one it took.
    func report(_ result: ChangeResult, _ line: String) {
        var result = result
        result.revision = session.history.revision
        result.author = session.history.author
        console.write(options.json ? AlbumFormatter.resultJSON(result) : line + "\n")
    }

    /// Exports in bounded memory: the albums are read a batch at a time and written as they come.
    private func export(to destination: String?, force: Bool) throws {
        var writer = AlbumFile.Writer()
        var count = 0
        guard let destination, destination != "-" else {
            try library.forEachAlbum { albums in
                count += albums.count
                console.write(String(decoding: writer.bytes(for: albums), as: UTF8.self))
            }
            console.write(String(decoding: writer.end(), as: UTF8.self))
            return
        }
        do {
            try UserFile.checkExportDestination(destination, library: session.path, force: force)
        } catch {
            throw LibraryError(.storage, "cannot export to \(destination): \(error.reason)")
        }
        do {
            try UserFile.replaceContents(atPath: destination) { write in
                try library.forEachAlbum { albums in
                    count += albums.count
                    try write(writer.bytes(for: albums))
                }
                try write(writer.end())
            }
        } catch let refusal as UserFile.Refusal {
            throw LibraryError(
                .storage, "cannot export to \(destination): \(refusal.reason); the file was not changed")
        }
        let line =
            "Exported \(count) album\(count == 1 ? "" : "s") to \(DisplayText.sanitized(destination))"
        if options.json {
            struct Exported: Encodable {
                var command = "export"
                var file: String
                var count: Int
            }
            console.write(AlbumFormatter.json(Exported(file: destination, count: count)))
        } else {
            console.write(line + "\n")
        }
    }

    static func reason(_ error: any Error) -> String {
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
