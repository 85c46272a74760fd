import AlbumLibrary
import ArgumentParser

/// `albums list [QUERY…] [--search TEXT] [--sort KEYS] [--format TEMPLATE]`.
struct ListSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the albums with their positions (1 is the first).",
        discussion: """
            * marks the current album. With --json: an array of objects with position, current and \
            every album field (null when empty).

            A query is words that must all match: a bare word or "quoted phrase" is looked for in \
            title, artist and genre (ignoring case and accents); title:, artist:, genre: look in one \
            field; year:1999, year:1990..1999, year:..1970, year:2000..; id:3F2A (the id's start); \
            field::regex; ^term (or -term after --) negates; "," or OR between terms separates \
            alternatives. Example: albums list artist:bowie year:1970..1979 ^live
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Terms the albums must match (see below).", valueName: "query"))
    var query: [String] = []

    @Option(
        name: [.short, .long],
        help: ArgumentHelp(
            "Only albums whose title, artist or genre contains TEXT (ignoring case and accents).",
            valueName: "text")
    )
    var search: String?

    @Option(
        help: ArgumentHelp(
            "The order: position (default), title, artist or year, each + (ascending) or - (descending), several separated by commas (year-,title).",
            valueName: "keys"),
        completion: .list(AlbumOrder.allCases.map(\.rawValue))
    )
    var sort: String?

    @Option(
        help: ArgumentHelp(
            "One line per album from a template: $position, $title, $artist, $genre, $year, $id, $cover, $current (${year} before letters, $$ for $).",
            valueName: "template")
    )
    var format: String?

    func action() throws(UsageError) -> AlbumsAction {
        let template = try format.map { text throws(UsageError) in try ListTemplate(parsing: text) }
        var order = AlbumSort.position
        if let sort {
            do {
                order = try AlbumSort(parsing: sort)
            } catch {
                throw UsageError(error.message, command: Self.name)
            }
        }
        if let search, search.isEmpty {
            throw UsageError("--search needs some text", command: Self.name)
        }
        // `.allUnrecognized` hands over mistyped options too: "--srot" is one, never a term.
        if let option = query.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
            throw UsageError("unknown option '\(option.prefix { $0 != "=" })' for \(Self.name)", command: Self.name)
        }
        let parsed: AlbumQuery?
        do {
            parsed = try AlbumQuery.parse(words: query)
        } catch {
            throw UsageError(error.message, command: Self.name)
        }
        switch (search.map(AlbumQuery.containing), parsed) {
        case (nil, nil): return .list(query: nil, order: order, format: template)
        case (let one?, nil), (nil, let one?): return .list(query: one, order: order, format: template)
        case (let search?, let parsed?):
            return .list(
                query: AlbumQuery(.all([search.expression, parsed.expression])), order: order, format: template)
        }
    }
}
