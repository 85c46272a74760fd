import NIOCore
import NIOHTTP1

/// A connection past the server's limit: its request answered with 503 and one line, then closed.
///
/// The answer waits for the request's first bytes, as a client expects, and the rest is read and
/// dropped rather than left unread: closing a socket with unread bytes sends a reset, which can
/// destroy the answer before the client reads it. So the handler ends its side after the answer
/// and closes the connection when the client does, or two seconds after it opened, whatever
/// the client sent.
final class ConnectionRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answer: [UInt8]
    private var isAnswered = false
    private var isBounded = false

    /// - Parameter limit: The connections the server holds, named in the message.
    init(limit: Int) {
        let body = ServerResponse.error(
            .serviceUnavailable, code: "too-many-connections",
            "the server already holds \(limit) connections, as many as its descriptor limit allows; try again later"
        ).body
        let head =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nRetry-After: 5\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        answer = Array(head.utf8) + body
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { bound(context.channel) }
    }

    func channelActive(context: ChannelHandlerContext) {
        bound(context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isAnswered else { return }
        isAnswered = true
        let channel = context.channel
        channel.writeAndFlush(channel.allocator.buffer(bytes: answer)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// How long a refused connection may hold its descriptor, answered or not.
    private func bound(_ channel: any Channel) {
        guard !isBounded else { return }
        isBounded = true
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }
}
