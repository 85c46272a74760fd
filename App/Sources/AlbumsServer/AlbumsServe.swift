public import AlbumLibrary
public import LaunchKit
import Locking
import Logging

/// `albums serve`: the page and the JSON API over one library session, as a LaunchKit service.
///
/// ```
/// http-server (service: ready when the socket listens)
/// ```
///
/// SIGTERM or SIGINT stops it: the socket closes, the event streams end, the requests in
/// progress are answered, and the run returns (exit 0); a second signal escalates the shutdown.
public enum AlbumsServe: Sendable {
    /// Serves until a signal (or the server's failure).
    ///
    /// - Parameters:
    ///   - session: The open library; the server owns it on the main actor from now on.
    ///   - configuration: Where to listen, the token, the authors.
    ///   - options: The launch's options.
    ///   - announce: Called once the socket listens, with the URL to open.
    /// - Returns: The launch report.
    /// - Throws: `LaunchError`: the socket could not be bound, or the server failed.
    @MainActor
    public static func run(
        session: LibrarySession, configuration: ServerConfiguration, options: LaunchOptions,
        announce: @escaping @Sendable (String) -> Void
    ) async throws -> LaunchReport {
        var logger = Logger(label: "albums.serve")
        logger.logLevel = .notice
        let events = EventStreams(
            heartbeatInterval: configuration.heartbeatInterval, limit: configuration.maximumEventStreams,
            logger: logger)
        let library = LibraryService(session: session, configuration: configuration, events: events)
        let libraryGone = library.libraryGone
        // Port 0: the Host check takes the port the system chose, once the socket is bound.
        let port = LockedState(configuration.port)
        let router = APIRouter(
            library: library, events: events,
            requestGuard: RequestGuard(host: configuration.host, port: port, token: configuration.token),
            checkAuthor: configuration.checkAuthor, defaultAuthor: configuration.defaultAuthor)
        let service = LaunchService("http-server", stopTimeLimit: configuration.drainTimeLimit + .seconds(1)) {
            [logger] _, lifetime in
            let budget = DescriptorBudget.raiseLimit()
            if configuration.maximumEventStreams > budget.connections {
                logger.warning(
                    "the descriptor limit (\(budget.descriptors)) allows \(budget.connections) connections, fewer than --max-streams \(configuration.maximumEventStreams); raise it with 'ulimit -n'"
                )
            }
            let server = try await HTTPServer.start(
                host: configuration.host, port: configuration.port,
                router: router, events: events, maximumBodyBytes: configuration.maximumBodyBytes,
                maximumConnections: budget.connections, logger: logger)
            port.withLock { $0 = server.port }
            let watcher = Task { @MainActor in
                // The terminal UI's idle look, every 50 ms: a change reaches the pages within 250 ms.
                while !Task.isCancelled {
                    library.followExternalChanges()
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            lifetime.ready()
            announce(url(host: configuration.host, port: server.port, token: configuration.token))
            logger.notice("listening on \(configuration.host):\(server.port)")
            // Until asked to stop, or until the library file is gone (then the launch fails with why).
            let gone = await withTaskGroup(of: LibraryError?.self) { group in
                group.addTask {
                    await lifetime.waitForStopRequest()
                    return nil
                }
                group.addTask {
                    for await error in libraryGone { return error }
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            logger.notice("stopping")
            await server.stop(timeLimit: configuration.drainTimeLimit)
            watcher.cancel()
            if let gone { throw gone }
        }
        let invoker = AppInvoker(commands: [service], options: options)
        return try await invoker.runUntilShutdown()
    }

    /// The URL to open: the address and port, and the token when there is one.
    static func url(host: String, port: Int, token: String?) -> String {
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(name):\(port)/" + (token.map { "?token=\($0)" } ?? "")
    }
}
