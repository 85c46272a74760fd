import AlbumLibrary
import ArgumentParser

/// `albums list [--search TEXT] [--sort KEY]`.
struct ListSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the albums with their positions (1 is the first).",
        discussion: """
            * marks the current album. With --json: an array of objects with position, current and \
            every album field (null when empty).
            """
    )

    @ParentCommand var root: AlbumsCommandLine

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
        return .list(search: search, order: order)
    }
}
