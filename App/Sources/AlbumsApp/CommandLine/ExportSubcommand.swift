import ArgumentParser

/// `albums export [FILE|-]`.
struct ExportSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the library as JSON (standard output by default).",
        discussion: """
            In the format 'albums import' reads, every field written (null when empty). FILE is \
            replaced as a whole; if it exists it must be a regular file, and a read-only one is \
            replaced only with --force. For a pipe, use -.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Argument(help: ArgumentHelp("The file, or - for standard output.", valueName: "file"), completion: .file())
    var destination: String?

    @Flag(name: .long, help: "Replace FILE even if it is read-only.")
    var force = false

    func action() throws(UsageError) -> AlbumsAction {
        guard destination != "" else {
            throw UsageError("export needs a file path, not an empty argument", command: Self.name)
        }
        return .export(destination: destination, force: force)
    }
}
