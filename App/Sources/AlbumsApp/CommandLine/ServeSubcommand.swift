import ArgumentParser
import Foundation

/// `albums serve [--port N] [--host ADDR] [--token T] [--max-streams N]`.
struct ServeSubcommand: AlbumsSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library to web browsers: the album page and a JSON API.",
        discussion: """
            Prints the URL to open once it listens (port 0 picks a free port). It listens on \
            127.0.0.1 unless --host names another address; then every request needs a token, \
            --token or one generated and printed once in the URL. Stops on SIGTERM or Ctrl-C, \
            once the requests in progress are answered.
            """
    )

    @ParentCommand var root: AlbumsCommandLine

    @Option(help: ArgumentHelp("The port to listen on (default 8080; 0 for any free one).", valueName: "port"))
    var port: String?

    @Option(help: ArgumentHelp("The address to listen on (default 127.0.0.1).", valueName: "address"))
    var host: String?

    @Option(
        help: ArgumentHelp(
            "The secret every request must carry (default: generated, off loopback).", valueName: "token"))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "The most pages that follow the library at once (default 256); one more is refused with 503.",
            valueName: "count"))
    var maxStreams: String?

    func action() throws(UsageError) -> AlbumsAction {
        var options = ServeOptions()
        if let port {
            guard let number = Int(port), (0...65535).contains(number) else {
                throw UsageError("--port '\(port)' is not a port number (0 to 65535)", command: Self.name)
            }
            options.port = number
        }
        if let host {
            let trimmed = host.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "/" })
            else {
                throw UsageError("--host '\(host)' is not an address", command: Self.name)
            }
            options.host = trimmed
        }
        if let token {
            guard token.count >= 8, token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != ";" })
            else {
                throw UsageError(
                    "--token needs at least 8 printable ASCII characters, without spaces or ';'", command: Self.name)
            }
            options.token = token
        }
        if let maxStreams {
            guard let count = Int(maxStreams), (1...ServeOptions.maximumEventStreamsLimit).contains(count) else {
                throw UsageError(
                    "--max-streams '\(maxStreams)' is not a count from 1 to \(ServeOptions.maximumEventStreamsLimit)",
                    command: Self.name)
            }
            options.maximumEventStreams = count
        }
        return .serve(options)
    }
}

/// What `albums serve` was given.
public struct ServeOptions: Sendable, Hashable {
    /// The port; 0 for any free one.
    public var port = 8080
    /// The address to bind.
    public var host = "127.0.0.1"
    /// The token requests must carry; generated when `nil` and the host is not a loopback address.
    public var token: String?
    /// The most event streams (open pages) at once; each holds a connection and a descriptor.
    public var maximumEventStreams = 256
    /// The largest `--max-streams`. Each stream holds a descriptor: the server raises its soft
    /// limit to the hard one, and warns at start when what is left for connections is fewer.
    public static let maximumEventStreamsLimit = 10_000
}
