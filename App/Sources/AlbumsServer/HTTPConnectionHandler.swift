import AlbumLibrary
import NIOCore
import NIOHTTP1

/// One connection's requests: gathers each request's body (up to the limit), hands the request
/// to the router off the event loop, and writes the answer; an event stream's connection is
/// handed to ``EventStreams`` instead of being ended.
///
/// The HTTP/1.1 pipeline in front of it delivers one request at a time, so the next one waits
/// until this one's response has ended.
final class HTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let router: APIRouter
    private let tracker: ConnectionTracker
    private let events: EventStreams
    private let maximumBodyBytes: Int
    /// The limit of the request being read: ``maximumBodyBytes``, or a cover upload's.
    private var bodyLimit: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// The connection is ending after a refusal (a body over the limit): nothing more is read.
    private var isClosing = false

    init(router: APIRouter, tracker: ConnectionTracker, events: EventStreams, maximumBodyBytes: Int) {
        self.router = router
        self.tracker = tracker
        self.events = events
        self.maximumBodyBytes = maximumBodyBytes
        bodyLimit = maximumBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isClosing else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            // Only a cover upload may send an image's bytes; every other route keeps the small limit.
            bodyLimit =
                APIRouter.isCoverUpload(head) ? max(CoverImage.maximumByteCount, maximumBodyBytes) : maximumBodyBytes
            if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > bodyLimit {
                refuseTooLarge(context: context, version: head.version)
            }
        case .body(let chunk):
            guard body.count + chunk.readableBytes <= bodyLimit else {
                refuseTooLarge(context: context, version: head?.version ?? .http1_1)
                return
            }
            body.append(contentsOf: chunk.readableBytesView)
        case .end:
            guard let head else { return }
            self.head = nil
            let request = ServerRequest(head: head, body: body)
            body = []
            tracker.requestStarted()
            let router = self.router
            let promise = context.eventLoop.makePromise(of: ServerResponse.self)
            promise.completeWithTask { await router.respond(to: request) }
            promise.futureResult.assumeIsolated().whenSuccess { response in
                self.write(response, for: head, context: context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request NIO's parser refused (malformed, headers too large): answer once, then close.
        if error is HTTPParserError, !isClosing {
            refuse(.badRequest, "the request is not HTTP this server reads", context: context, version: .http1_1)
            return
        }
        context.close(promise: nil)
    }

    private func refuseTooLarge(context: ChannelHandlerContext, version: HTTPVersion) {
        refuse(
            .payloadTooLarge, "the request body is larger than \(bodyLimit) bytes", context: context,
            version: version)
    }

    private func refuse(
        _ status: HTTPResponseStatus, _ message: String, context: ChannelHandlerContext, version: HTTPVersion
    ) {
        isClosing = true
        head = nil
        body = []
        let response = ServerResponse.error(status, code: "bad-request", message)
        writeHead(response, version: version, keepAlive: false, context: context)
        context.write(
            wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    private func write(_ response: ServerResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive && !tracker.isStopping
        let bytes = context.channel.allocator.buffer(bytes: response.body)
        switch response.kind {
        case .eventStream:
            writeHead(response, version: head.version, keepAlive: true, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
            tracker.requestEnded()
            events.add(context.channel)
        case .complete:
            writeHead(response, version: head.version, keepAlive: keepAlive, context: context)
            if head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
            }
            let tracker = self.tracker
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
                tracker.requestEnded()
            }
        }
    }

    private func writeHead(
        _ response: ServerResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        if response.kind == .complete {
            headers.add(name: "Content-Length", value: "\(response.body.count)")
        }
        headers.add(name: "Cache-Control", value: response.cacheControl)
        headers.add(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Cross-Origin-Resource-Policy", value: "same-origin")
        for (name, value) in response.extraHeaders { headers.add(name: name, value: value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: response.status, headers: headers))),
            promise: nil)
    }

    /// Only this server's own script, style and API; no inline script, no frames, no other site.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
