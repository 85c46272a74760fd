import Foundation
import NIOHTTP1

/// What a route answers: a whole response, or the start of an event stream that stays open.
struct ServerResponse: Sendable {
    enum Kind: Sendable {
        /// A response with this body.
        case complete
        /// `text/event-stream`: the body is the stream's first events; the connection then joins
        /// the event streams until the client leaves or the server stops.
        case eventStream
    }

    var kind: Kind = .complete
    var status: HTTPResponseStatus
    var contentType: String
    var body: [UInt8]
    /// Headers beyond the ones every response carries (a cookie, an ETag).
    var extraHeaders: [(String, String)] = []
    /// `Cache-Control`: nothing is kept but a stored cover, revalidated by its `ETag`.
    var cacheControl = "no-store"

    /// A JSON response of an encodable value.
    static func json<Value: Encodable>(_ value: Value, status: HTTPResponseStatus = .ok) -> ServerResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
        return ServerResponse(status: status, contentType: "application/json; charset=utf-8", body: body)
    }

    /// A JSON error: `{"error": {"code": …, "message": …}}`, the message one line for people.
    static func error(_ status: HTTPResponseStatus, code: String, _ message: String) -> ServerResponse {
        json(ErrorBody(error: .init(code: code, message: message)), status: status)
    }

    /// Text served as it is (the page, its script and style).
    static func text(_ text: String, contentType: String) -> ServerResponse {
        ServerResponse(status: .ok, contentType: contentType, body: Array(text.utf8))
    }

    private struct ErrorBody: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
        }
        var error: Detail
    }
}
