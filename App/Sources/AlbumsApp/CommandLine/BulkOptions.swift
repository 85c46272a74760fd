import AlbumLibrary
import ArgumentParser

/// `--yes` and `--dry-run`, and reading the album words of `delete`, `edit` and `move` as one
/// album, several, or a query.
struct BulkOptions: ParsableArguments {
    @Flag(help: "Change several albums without asking (needed without a terminal).")
    var yes = false

    @Flag(name: .customLong("dry-run"), help: "Print what would change and change nothing.")
    var dryRun = false

    /// The words as a selection of several albums, or `nil` for one album named alone (the single
    /// change, as before). A word with a field (`genre:pop`), a leading `^`, or `,`/`OR` between
    /// words makes all of them a query; otherwise each word names one album.
    static func selection(_ words: [String], command: String) throws(UsageError) -> AlbumSelection? {
        let fields = AlbumQuery.Field.allCases.map { $0.rawValue + ":" }
        let isQuery = words.contains { word in
            fields.contains { word.hasPrefix($0) } || word.hasPrefix("^")
                || (words.count > 1 && (word == "," || word == "OR"))
        }
        if isQuery {
            let query: AlbumQuery?
            do {
                query = try AlbumQuery.parse(words: words)
            } catch {
                throw UsageError(error.message, command: command)
            }
            guard let query else { throw UsageError("\(command) needs ALBUM", command: command) }
            return .matching(query)
        }
        guard words.count > 1 else { return nil }
        var references: [AlbumReference] = []
        for word in words {
            references.append(try AlbumReference(parsing: word, label: "ALBUM", command: command))
        }
        return .albums(references)
    }
}
