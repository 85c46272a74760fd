import Foundation

/// One operation of the history checker: a mutating `albums` subcommand with its arguments.
enum CheckerOperation: Hashable, Sendable, CustomStringConvertible {
    /// How an operation names its album: the three forms the command line takes.
    enum Reference: Hashable, Sendable {
        case position(Int)
        case id(UUID)
        case title(String)

        var argument: String {
            switch self {
            case .position(let position): String(position)
            case .id(let id): id.uuidString
            case .title(let title): title
            }
        }
    }

    /// The fields an edit sets; an empty year or cover removes it, an empty genre clears it.
    struct Fields: Hashable, Sendable {
        var title: String?
        var artist: String?
        var genre: String?
        var year: String?
        var cover: String?

        var arguments: [String] {
            [("--title", title), ("--artist", artist), ("--genre", genre), ("--year", year), ("--cover", cover)]
                .flatMap { option, value in value.map { [option, $0] } ?? [] }
        }

        /// These fields less the ones `album` already has as they would set them.
        func differing(from album: LibraryModel.Album) -> Fields {
            let edited = applied(to: album)
            var kept = self
            if edited.title == album.title { kept.title = nil }
            if edited.artist == album.artist { kept.artist = nil }
            if edited.genre == album.genre { kept.genre = nil }
            if edited.year == album.year { kept.year = nil }
            if edited.cover == album.cover { kept.cover = nil }
            return kept
        }

        /// The album as the edit leaves it.
        func applied(to album: LibraryModel.Album) -> LibraryModel.Album {
            var album = album
            if let title { album.title = title }
            if let artist { album.artist = artist }
            if let genre { album.genre = genre }
            if let year { album.year = year.isEmpty ? nil : Int(year) }
            if let cover { album.cover = cover.isEmpty ? nil : cover }
            return album
        }
    }

    case add(title: String, artist: String, genre: String?, at: Int?)
    case edit(Reference, Fields)
    case move(Reference, to: Int)
    case delete(Reference)
    case undo(Int)
    case redo(Int)
    /// `undo --to STEP`: a jump to any step of the tree (0: the start).
    case undoTo(Int)
    /// `undo --mine`: the process's own latest change (each process is an author).
    case undoMine
    /// `redo --mine`.
    case redoMine
    /// `delete A B … --yes`: several albums named by reference, one step.
    case deleteAlbums([Reference])
    /// `edit genre:G … --yes`: the albums whose genre contains `genre` (folded), one step.
    case editMatching(genre: String, Fields)
    /// `move genre:G --to N --yes`: those albums, in library order, to positions N, N+1, …
    case moveMatching(genre: String, to: Int)
    /// `import FILE`: the file holds these albums.
    case importAlbums([LibraryModel.Album], file: String)
    /// `import --replace FILE`.
    case replace([LibraryModel.Album], file: String)
    /// `cover set ALBUM FILE`: the file holds ``CheckerWorkload/coverImages``[`image`].
    case setCover(Reference, image: Int, file: String)
    /// `cover remove ALBUM`.
    case removeCover(Reference)
    /// `history --repair`: nothing else edits the checker's libraries, so every step applies and
    /// it must always be refused, whatever the history (a step it sets aside would be a step lost).
    case repair

    /// Whether the operation needs a library file: a library on a PostgreSQL server would refuse
    /// it, so a server's rounds would draw none. None does any more (the repair works on a server).
    var needsLibraryFile: Bool {
        switch self {
        case .add, .edit, .move, .delete, .undo, .redo, .undoTo, .undoMine, .redoMine: false
        case .importAlbums, .replace, .setCover, .removeCover, .deleteAlbums, .editMatching, .moveMatching: false
        case .repair: false
        }
    }

    /// The subcommand and its arguments (after `albums --db PATH --json`).
    var arguments: [String] {
        switch self {
        case .add(let title, let artist, let genre, let at):
            ["add", "--title", title, "--artist", artist] + (genre.map { ["--genre", $0] } ?? [])
                + (at.map { ["--at", String($0)] } ?? [])
        case .edit(let reference, let fields): ["edit", reference.argument] + fields.arguments
        case .move(let reference, let target): ["move", reference.argument, String(target)]
        case .delete(let reference): ["delete", reference.argument]
        case .deleteAlbums(let references): ["delete"] + references.map(\.argument) + ["--yes"]
        case .editMatching(let genre, let fields): ["edit", "genre:" + genre] + fields.arguments + ["--yes"]
        case .moveMatching(let genre, let target): ["move", "genre:" + genre, "--to", String(target), "--yes"]
        case .undo(let count): ["undo", String(count)]
        case .redo(let count): ["redo", String(count)]
        case .undoTo(let step): ["undo", "--to", String(step)]
        case .undoMine: ["undo", "--mine"]
        case .redoMine: ["redo", "--mine"]
        case .importAlbums(_, let file): ["import", file]
        case .replace(_, let file): ["import", "--replace", file]
        case .repair: ["history", "--repair"]
        case .setCover(let reference, _, let file): ["cover", "set", reference.argument, file]
        case .removeCover(let reference): ["cover", "remove", reference.argument]
        }
    }

    /// The subcommand's name, `import --replace` apart from `import`.
    var subcommand: String {
        if case .replace = self { return "import --replace" }
        if case .undoTo = self { return "undo --to" }
        if case .undoMine = self { return "undo --mine" }
        if case .redoMine = self { return "redo --mine" }
        if case .repair = self { return "history --repair" }
        if case .deleteAlbums = self { return "delete several" }
        if case .editMatching = self { return "edit QUERY" }
        if case .moveMatching = self { return "move QUERY" }
        if case .setCover = self { return "cover set" }
        if case .removeCover = self { return "cover remove" }
        return arguments[0]
    }

    /// The file an import reads, written before the run.
    var importFile: (path: String, albums: [LibraryModel.Album])? {
        switch self {
        case .importAlbums(let albums, let file), .replace(let albums, let file): (file, albums)
        default: nil
        }
    }

    /// The image file a `cover set` reads, written before the run.
    var coverFile: (path: String, bytes: Data)? {
        guard case .setCover(_, let image, let file) = self else { return nil }
        return (file, CheckerWorkload.coverImages[image])
    }

    var description: String {
        "albums "
            + arguments.map { word in
                word.contains(" ") || word.isEmpty
                    ? "\"\(word)\"" : (word.hasPrefix("/") ? (word as NSString).lastPathComponent : word)
            }.joined(separator: " ")
    }
}
