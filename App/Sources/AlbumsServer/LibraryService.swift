import AlbumLibrary
import CommandKit
import CommandStore
import Foundation

/// The one owner of the library's session: every API call runs here, on the main actor, one at a
/// time (a session is one connection and is not thread-safe).
///
/// Each change names its album by id and hands it to the session, which resolves it inside the
/// write transaction; undo and redo pass the step the page showed as the expectation, so a stale
/// page is refused by the library itself.
///
/// Another program may move a backup over the library file, copy one over it or remove it while
/// the server has it open. Before each call and at each look for other processes' changes the
/// service asks whether the path still names the file it opened (``followLibraryFile(forChange:)``):
/// it reopens the file now at the path and tells every page, or, when the file is gone, stops the
/// server (``libraryGone``) without writing anything there.
@MainActor
final class LibraryService {
    private(set) var session: LibrarySession
    let configuration: ServerConfiguration
    let events: EventStreams
    /// Yields once when the library file is gone: the server then stops with that error.
    let libraryGone: AsyncStream<LibraryError>
    private let libraryGoneContinuation: AsyncStream<LibraryError>.Continuation
    /// The revision last announced to the event streams.
    private var announcedRevision: Int
    /// The undo-mine previews made at one revision, by author.
    private var minePreviews: (revision: Int, byAuthor: [String: MineJSON])?

    init(session: LibrarySession, configuration: ServerConfiguration, events: EventStreams) {
        self.session = session
        self.configuration = configuration
        self.events = events
        announcedRevision = session.history.revision
        (libraryGone, libraryGoneContinuation) = AsyncStream.makeStream(of: LibraryError.self)
    }

    var revision: Int { session.history.revision }

    // MARK: - Reading

    /// A window of albums (or of the albums matching `search`) and the history's state, read in
    /// one snapshot, so the Undo titles (everyone's, and `author`'s own when asked) belong to the
    /// albums shown.
    func state(offset: Int, limit: Int, search: String?, mineOf author: String?) throws -> StateJSON {
        try followLibraryFile(forChange: false)
        let library = session.library
        var state: StateJSON?
        try library.inOneSnapshot {
            // A table read first starts the snapshot; the refresh then rereads the history in it.
            let count = try library.count()
            try session.refresh()
            var albums: [AlbumJSON]
            var total = count
            if let search, !search.isEmpty {
                let matches = try library.albums(matching: search, order: .position)
                total = matches.count
                albums = matches.dropFirst(offset).prefix(limit).map { AlbumJSON($0.album, position: $0.position) }
            } else {
                let start = min(offset, count)
                let end = min(start + limit, count)
                albums = try library.albums(at: (start + 1)..<(end + 1)).enumerated().map {
                    AlbumJSON($0.element, position: start + $0.offset + 1)
                }
            }
            // Which of them have a stored cover, in the same snapshot (the page shows it by its hash).
            let covers = try library.coverSummaries(of: albums.compactMap { UUID(uuidString: $0.id) })
            for index in albums.indices {
                albums[index].storedCover = UUID(uuidString: albums[index].id).flatMap { covers[$0] }
            }
            // The last steps only, each one indexed row (a whole listing reads every record:
            // 180 ms at 3,000 steps), numbered by node as `albums history` and the refusals
            // ("after your edit (step 41)") number them.
            let history = session.history
            let (steps, done) = (history.count, history.index)
            let recent = try (max(0, steps - Self.historyShown)..<steps).reversed().map { position in
                let record = try history.record(at: position)
                return HistoryStepJSON(
                    number: try history.node(at: position).rawValue, text: record.text, author: record.author,
                    time: record.date.map { ($0.timeIntervalSince1970 * 1000).rounded() }, done: position < done)
            }
            let revision = history.revision
            state = StateJSON(
                revision: revision, count: total, offset: offset, albums: albums,
                undo: session.undoRecord.map(Self.step), redo: session.redoRecord.map(Self.step),
                author: configuration.defaultAuthor, search: search, history: recent,
                mine: try author.map { try minePreview(author: $0, revision: revision) })
        }
        guard let state else { throw LibraryError(.storage, "the library could not be read") }
        return state
    }

    /// How many of the last steps the page's history panel shows.
    static let historyShown = 50

    /// `author`'s undo-mine and redo-mine previews at `revision`, inside the state's snapshot:
    /// each is a scan of the steps after the author's latest, so it is made once per revision and
    /// author (every open page asks again after each change).
    private func minePreview(author: String, revision: Int) throws -> MineJSON {
        if let cached = minePreviews, cached.revision == revision, let known = cached.byAuthor[author] {
            return known
        }
        let preview = MineJSON(
            author: author, undo: MineStepJSON(try session.previewMine(author: author)),
            redo: MineStepJSON(try session.previewMine(author: author, reapplying: true)))
        var byAuthor = minePreviews.flatMap { $0.revision == revision ? $0.byAuthor : nil } ?? [:]
        if byAuthor.count >= Self.previewedAuthors { byAuthor = [:] }
        byAuthor[author] = preview
        minePreviews = (revision, byAuthor)
        return preview
    }

    /// The most authors whose previews are kept for one revision (a bound, not a working set).
    static let previewedAuthors = 256

    private static func step(_ record: HistoryRecord) -> StepJSON {
        StepJSON(id: record.id.description, title: record.actionText, text: record.text, author: record.author)
    }

    // MARK: - Changes

    func add(_ request: AddRequest, author: String) throws -> ChangeJSON {
        var album = Album(title: request.title, artist: request.artist, genre: request.genre ?? "", year: request.year)
        if let cover = request.cover, !cover.isEmpty { album.coverURL = try Album.parsedCoverURL(cover) }
        album = try album.validated()
        let after = try request.after.map { try Self.albumID($0) }
        let command = try changing(as: author) { try session.add(album, after: after.map { .id($0) }) }
        return changed(
            "Added “\(command.album.title)” (position \(command.position))", steps: [command.text], author: author,
            album: AlbumJSON(command.album, position: command.position))
    }

    func edit(_ id: UUID, _ request: EditRequest, author: String) throws -> ChangeJSON {
        var changes = request.changes
        if let cover = request.coverText { changes.coverURL = try Album.parsedCoverURL(cover) }
        let change = try changing(as: author) { try session.edit(.id(id), changes: changes) }
        let edited = (try? change.album.applying(changes)) ?? change.album
        return changed(
            "Edited “\(edited.title)” (position \(change.position))", steps: [change.command.text], author: author,
            album: AlbumJSON(edited, position: change.position))
    }

    func delete(_ id: UUID, author: String) throws -> ChangeJSON {
        let change = try changing(as: author) { try session.delete(.id(id)) }
        return changed(
            "Deleted “\(change.album.title)” (position \(change.position))", steps: [change.command.text],
            author: author,
            album: AlbumJSON(change.album, position: change.position))
    }

    func move(_ id: UUID, to target: Int, author: String) throws -> ChangeJSON {
        let change = try changing(as: author) { try session.move(.id(id), to: target) }
        return changed(
            "Moved “\(change.album.title)” from position \(change.command.from) to \(change.command.to)",
            steps: [change.command.text], author: author,
            album: AlbumJSON(change.album, position: change.command.to))
    }

    /// Stores `image` as the album's cover, or removes its cover (`nil`): one step.
    func setCover(_ id: UUID, to image: CoverImage?, author: String) throws -> ChangeJSON {
        let change = try changing(as: author) { try session.setCover(.id(id), to: image) }
        let verb = image == nil ? "Removed" : "Set"
        return changed(
            "\(verb) the cover of “\(change.album.title)” (position \(change.position))", steps: [change.command.text],
            author: author,
            album: AlbumJSON(
                change.album, position: change.position,
                storedCover: try session.library.coverSummary(of: change.album.id)))
    }

    /// The stored cover image of an album, read as committed now.
    func cover(of id: UUID) throws -> CoverImage? {
        try followLibraryFile(forChange: false)
        return try session.library.cover(of: id)
    }

    func undo(expecting: String?, author: String) throws -> ChangeJSON {
        let expected = try expecting.map(Self.recordID)
        let records = try changing(as: author) { try session.undo(count: 1, expecting: expected) }
        return changed(
            records.map { "Undid \($0.text)" }.joined(separator: "\n"), steps: records.map(\.text),
            author: author)
    }

    func redo(expecting: String?, author: String) throws -> ChangeJSON {
        let expected = try expecting.map(Self.recordID)
        let records = try changing(as: author) { try session.redo(count: 1, expecting: expected) }
        return changed(
            records.map { "Redid \($0.text)" }.joined(separator: "\n"), steps: records.map(\.text),
            author: author)
    }

    func mine(redoing: Bool, author: String) throws -> ChangeJSON {
        let result = try changing(as: author) {
            redoing ? try session.redoMine(author: author) : try session.undoMine(author: author)
        }
        var change: ChangeJSON
        switch result {
        case .reverted(let command):
            let later = redoing ? "" : ", keeping the later changes"
            change = changed(
                "\(redoing ? "Redid" : "Undid") your \(command.change.text) (step \(command.step))\(later)",
                steps: [result.text], author: author)
            (change.step, change.how, change.stepNumber) = (command.change.text, "reverted", command.step)
        case .undone(let record):
            change = changed("Undid your \(record.text)", steps: [result.text], author: author)
            (change.step, change.how) = (record.text, "undone")
        case .redone(let record):
            change = changed("Redid your \(record.text)", steps: [result.text], author: author)
            (change.step, change.how) = (record.text, "redone")
        }
        return change
    }

    /// Runs a change with `author` recorded as its author (the session's author is this server's
    /// otherwise), then tells the event streams.
    private func changing<T>(as author: String, _ body: () throws -> T) throws -> T {
        try followLibraryFile(forChange: true)
        let history = session.history
        let previous = history.author
        history.author = author
        defer { history.author = previous }
        return try body()
    }

    private func changed(_ message: String, steps: [String], author: String, album: AlbumJSON? = nil) -> ChangeJSON {
        let revision = session.history.revision
        announce(revision)
        return ChangeJSON(revision: revision, message: message, steps: steps, album: album, author: author)
    }

    // MARK: - Following other processes

    /// Looks for other processes' commits (one `PRAGMA data_version` when nothing changed, as the
    /// terminal UI's idle look) and announces a new revision to the event streams.
    func followExternalChanges() {
        do {
            try followLibraryFile(forChange: false)
            try session.refresh()
        } catch {
            return
        }
        announce(session.history.revision)
    }

    private func announce(_ revision: Int, reopened: Bool = false) {
        guard revision != announcedRevision || reopened else { return }
        announcedRevision = revision
        events.publish(revision: revision, reopened: reopened)
    }

    // MARK: - The library file

    /// Makes sure the session is on the file at the library's path, as it was when opened.
    ///
    /// A file written over in place (a copy, or what cannot be told from one: another process's
    /// checkpoint) is reopened and the call goes on there, where every change is decided inside
    /// its transaction as ever. After a replacement (another file at the path: a restore) the file
    /// is reopened too, but a change is refused: it was meant for what the page showed. Every
    /// page is told to reload. A file that is gone stops the server.
    ///
    /// - Parameter forChange: Whether a change is about to be made.
    /// - Throws: ``LibraryError`` refusing the change, or when the file is gone or cannot be
    ///   reopened.
    private func followLibraryFile(forChange: Bool) throws {
        // A status that cannot be read fails again where the call reads, which reports it.
        guard let status = try? session.fileStatus(), status != .unchanged else { return }
        let path = session.path
        guard status != .removed else {
            session.close()
            let error = LibraryError(
                .storage,
                "the library \(path) was removed or renamed by another program while it was served; albums "
                    + "stopped without writing to it")
            libraryGoneContinuation.yield(error)
            throw error
        }
        session = try session.reopened(settlingFor: .seconds(3))
        announce(session.history.revision, reopened: true)
        if status == .replaced && forChange {
            throw LibraryError(
                .historyChanged,
                "another program replaced the library file (a restore?): the server reopened it; your change was "
                    + "not applied")
        }
    }

    // MARK: - Words from requests

    static func albumID(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw LibraryError(.invalidValue, "'\(LibraryError.excerpt(of: text))' is not an album id")
        }
        return id
    }

    static func recordID(_ text: String) throws -> HistoryRecord.ID {
        guard let id = HistoryRecord.ID(text) else {
            throw LibraryError(.invalidValue, "'\(LibraryError.excerpt(of: text))' is not a step id")
        }
        return id
    }
}
