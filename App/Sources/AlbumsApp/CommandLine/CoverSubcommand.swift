import AlbumLibrary
import ArgumentParser

/// `albums cover set ALBUM FILE`, `albums cover remove ALBUM`, `albums cover export ALBUM FILE`.
struct CoverSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Store, remove or export an album's cover image.",
        discussion: """
            'cover set ALBUM FILE' stores the image in the library as one undoable step: PNG, JPEG, \
            WebP or GIF, checked by its bytes, at most 10 MiB. 'cover remove ALBUM' removes it (undo \
            brings it back). 'cover export ALBUM FILE' writes the stored image to FILE (replaced as a \
            whole; a read-only file only with --force). The stored image is apart from the album's \
            cover URL (edit --cover), a link albums never fetches; 'albums export' writes no image bytes.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(
        help: ArgumentHelp(
            "set, remove or export, the album, then the image file (set and export).", valueName: "words"),
        completion: .file())
    var words: [String] = []

    @Flag(name: .long, help: "With export: replace FILE even if it is read-only.")
    var force = false

    func action() throws(UsageError) -> AlbumsAction {
        guard let verb = words.first else {
            throw UsageError("cover needs set, remove or export", command: Self.name)
        }
        let needsFile = verb == "set" || verb == "export"
        guard needsFile || verb == "remove" else {
            throw UsageError("cover needs set, remove or export, not '\(verb)'", command: Self.name)
        }
        guard words.count >= 2 else { throw UsageError("cover \(verb) needs ALBUM", command: Self.name) }
        let album = try AlbumReference(parsing: words[1], label: "ALBUM", command: Self.name)
        let expected = needsFile ? 3 : 2
        if needsFile && words.count < 3 { throw UsageError("cover \(verb) needs FILE", command: Self.name) }
        guard words.count == expected else {
            throw UsageError("unexpected argument '\(words[expected])' for cover \(verb)", command: Self.name)
        }
        if needsFile && words[2].isEmpty {
            throw UsageError("cover \(verb) needs a file path, not an empty argument", command: Self.name)
        }
        if force && verb != "export" {
            throw UsageError("--force is for cover export only", command: Self.name)
        }
        switch verb {
        case "set": return .setCover(album, file: words[2])
        case "remove": return .removeCover(album)
        default: return .exportCover(album, file: words[2], force: force)
        }
    }
}
