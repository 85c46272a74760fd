import AlbumLibrary
import AlbumsServer
import LaunchKit

extension AlbumsApp {
    /// Names the event streams' heartbeat interval in milliseconds, for the tests.
    static let testHeartbeatVariable = "ALBUMS_TEST_EVENT_HEARTBEAT_MS"
    /// Names how long a stop waits for requests in progress, in milliseconds, for the tests: on a
    /// loaded machine a request held on purpose may need more than the 5 seconds a user gets.
    static let testDrainVariable = "ALBUMS_TEST_DRAIN_MS"

    /// `albums serve`: the page and the JSON API until SIGTERM or SIGINT (exit 0 then).
    ///
    /// Off a loopback address every request needs a token: the one given, or one generated here
    /// and printed once, in the URL.
    @MainActor
    static func serve(
        session: LibrarySession, options: ServeOptions, author: String, arguments: [String],
        environment: [String: String], console: Console
    ) async -> Int32 {
        let token =
            options.token ?? (ServerConfiguration.isLoopback(options.host) ? nil : ServerConfiguration.generatedToken())
        var configuration = ServerConfiguration(
            host: options.host, port: options.port, token: token, defaultAuthor: author,
            checkAuthor: { name in
                do throws(UsageError) {
                    return .success(try AuthorName.checked(name, source: "author"))
                } catch {
                    return .failure(ServerRefusal(error.message))
                }
            })
        configuration.maximumEventStreams = options.maximumEventStreams
        // Tests only: a heartbeat they need not wait 15 seconds for.
        if let milliseconds = environment[Self.testHeartbeatVariable].flatMap(Int.init), milliseconds > 0 {
            configuration.heartbeatInterval = .milliseconds(milliseconds)
        }
        if let milliseconds = environment[Self.testDrainVariable].flatMap(Int.init), milliseconds > 0 {
            configuration.drainTimeLimit = .milliseconds(milliseconds)
        }
        do {
            _ = try await AlbumsServe.run(
                session: session, configuration: configuration,
                options: LaunchOptions(arguments: arguments, environment: environment)
            ) { url in
                console.write("albums: serving \(url)\n")
            }
            return 0
        } catch let error as LaunchError {
            let reason =
                (error.underlyingError as? ServerRefusal)?.message ?? error.underlyingError.map(describe)
                ?? error.message
            console.writeErrorLine("albums: serve: \(reason)")
            return error.exitStatus
        } catch {
            console.writeErrorLine("albums: serve: \(describe(error))")
            return failureExitCode
        }
    }
}
