import AlbumLibrary
import ArgumentParser

/// `albums list [QUERY…] [--search TEXT] [--sort KEY]`.
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
        help: ArgumentHelp("The order: position (default), title, artist or year.", valueName: "key"),
        completion: .list(AlbumOrder.allCases.map(\.rawValue))
    )
    var sort: String?

    func action() throws(UsageError) -> AlbumsAction {
        var order = AlbumOrder.position
        if let sort {
            guard let known = AlbumOrder(rawValue: sort) else {
                let names = AlbumOrder.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("unknown sort key '\(sort)' (known: \(names))", command: Self.name)
            }
            order = known
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
        case (nil, nil): return .list(query: nil, order: order)
        case (let one?, nil), (nil, let one?): return .list(query: one, order: order)
        case (let search?, let parsed?):
            return .list(query: AlbumQuery(.all([search.expression, parsed.expression])), order: order)
        }
    }
}
