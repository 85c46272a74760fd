import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// The listening socket and its event loops: binds, accepts HTTP/1.1 connections into
/// ``HTTPConnectionHandler``s, and stops so that requests in progress finish first.
final class HTTPServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let tracker: ConnectionTracker
    private let events: EventStreams
    private let logger: Logger

    /// The port the socket listens on (the one the system chose for port 0).
    let port: Int

    private init(
        group: MultiThreadedEventLoopGroup, channel: any Channel, tracker: ConnectionTracker, events: EventStreams,
        logger: Logger
    ) {
        self.group = group
        self.channel = channel
        self.tracker = tracker
        self.events = events
        self.logger = logger
        port = channel.localAddress?.port ?? 0
    }

    /// Binds and starts accepting connections, at most `maximumConnections` served at once (a
    /// connection past them is answered 503 and closed).
    static func start(
        host: String, port: Int, router: APIRouter, events: EventStreams, maximumBodyBytes: Int,
        maximumConnections: Int, logger: Logger
    ) async throws -> HTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let tracker = ConnectionTracker(limit: maximumConnections, refusalLimit: DescriptorBudget.refusing)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                switch tracker.admit(channel) {
                case .serve:
                    break
                case .refuse:
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ConnectionRefusalHandler(limit: tracker.limit))
                    }
                case .drop:
                    return channel.close()
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: false)
                    try channel.pipeline.syncOperations.addHandler(
                        HTTPConnectionHandler(
                            router: router, tracker: tracker, events: events, maximumBodyBytes: maximumBodyBytes))
                }
            }
        do {
            let bindHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            let channel = try await bootstrap.bind(host: bindHost, port: port).get()
            return HTTPServer(group: group, channel: channel, tracker: tracker, events: events, logger: logger)
        } catch {
            try? await group.shutdownGracefully()
            if let error = error as? IOError {
                // NIO's words name the system call; say what could not be done.
                throw ServerRefusal("cannot listen on \(host):\(port): \(String(cString: strerror(error.errnoCode)))")
            }
            throw error
        }
    }

    /// Stops: no new connections, every event stream ended, the requests in progress answered
    /// (within `timeLimit`), then every connection closed and the event loops shut down.
    func stop(timeLimit: Duration) async {
        tracker.beginStopping()
        try? await channel.close()
        events.closeAll()
        let clock = ContinuousClock()
        let deadline = clock.now + timeLimit
        while tracker.requestsInProgress > 0, clock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let unfinished = tracker.requestsInProgress
        tracker.closeAll()
        guard unfinished == 0 else {
            // Cut short (the time limit, or a second signal): a request still running will complete
            // on the event loop, so the loop stays up; the process ends it when it exits.
            logger.warning("stopping with \(unfinished) requests unanswered")
            return
        }
        try? await group.shutdownGracefully()
    }
}
