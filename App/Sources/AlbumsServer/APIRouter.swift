import AlbumLibrary
import Foundation
import NIOHTTP1

/// The fixed routes: the page, its script and style, and the JSON API. Nothing maps a path onto
/// a file, so no path can reach one.
struct APIRouter: Sendable {
    let library: LibraryService
    let events: EventStreams
    let requestGuard: RequestGuard
    let checkAuthor: @Sendable (String) -> Result<String, ServerRefusal>
    let defaultAuthor: String

    /// The header a page or script names its author with (or the body's `author`).
    static let authorHeader = "X-Albums-Author"

    func respond(to request: ServerRequest) async -> ServerResponse {
        if let refusal = requestGuard.refusal(for: request) { return refusal }
        do {
            return try await route(request)
        } catch let error as ServerRefusal {
            return .error(.badRequest, code: "bad-request", error.message)
        } catch {
            return Self.response(for: error)
        }
    }

    private func route(_ request: ServerRequest) async throws -> ServerResponse {
        switch (request.method, request.path) {
        case (.GET, "/"), (.GET, "/index.html"):
            var page = ServerResponse.text(PageHTML.text, contentType: "text/html; charset=utf-8")
            if let token = request.query["token"], requestGuard.token != nil {
                page.extraHeaders.append(
                    ("Set-Cookie", "\(RequestGuard.tokenCookie)=\(token); HttpOnly; SameSite=Strict; Path=/"))
            }
            return page
        case (.GET, "/app.js"):
            return .text(PageScript.text, contentType: "text/javascript; charset=utf-8")
        case (.GET, "/app.css"):
            return .text(PageStyle.text, contentType: "text/css; charset=utf-8")
        case (.GET, "/api/state"):
            let offset = try Self.number(request.query["offset"], name: "offset", default: 0, limit: Int.max)
            let limit = try Self.number(request.query["limit"], name: "limit", default: 100, limit: 1000)
            let search = request.query["q"]
            // `mine=1`: the state previews the undo mine and redo mine of `author` (the page's
            // name); only when asked, since each is a scan back to that author's latest step.
            let author = try author(request, request.query["author"])
            let mine = request.query["mine"] == "1" ? author : nil
            let state = try await library.state(offset: offset, limit: limit, search: search, mineOf: mine)
            return .json(state)
        case (.GET, "/api/events"):
            guard events.reserve() else {
                var refusal = ServerResponse.error(
                    .serviceUnavailable, code: "too-many-streams",
                    "\(events.limit) pages already follow this library (albums serve --max-streams); close one, or try again later"
                )
                refusal.extraHeaders.append(("Retry-After", "5"))
                return refusal
            }
            let revision = await library.revision
            return ServerResponse(
                kind: .eventStream, status: .ok, contentType: "text/event-stream",
                body: events.opening(revision: revision))
        case (.POST, "/api/albums"):
            let body = try Self.decode(AddRequest.self, request)
            let author = try author(request, body.author)
            return .json(try await library.add(body, author: author), status: .created)
        case (.POST, "/api/undo"), (.POST, "/api/redo"):
            let body = try Self.decode(StepRequest.self, request)
            let author = try author(request, body.author)
            let result =
                request.path == "/api/undo"
                ? try await library.undo(expecting: body.expecting, author: author)
                : try await library.redo(expecting: body.expecting, author: author)
            return .json(result)
        case (.POST, "/api/undo-mine"), (.POST, "/api/redo-mine"):
            let body = try Self.decode(StepRequest.self, request)
            let author = try author(request, body.author)
            return .json(try await library.mine(redoing: request.path == "/api/redo-mine", author: author))
        case (.GET, _) where request.path.hasPrefix("/covers/"), (.HEAD, _) where request.path.hasPrefix("/covers/"):
            return try await coverRoute(request)
        default:
            return try await albumRoute(request)
        }
    }

    /// `/api/albums/{id}` (PATCH, DELETE), `/api/albums/{id}/move` (POST) and
    /// `/api/albums/{id}/cover` (PUT, DELETE).
    private func albumRoute(_ request: ServerRequest) async throws -> ServerResponse {
        let prefix = "/api/albums/"
        guard request.path.hasPrefix(prefix) else { return Self.notFound(request) }
        let rest = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 1 || rest.count == 2 && (rest[1] == "move" || rest[1] == "cover"),
            let id = UUID(uuidString: String(rest[0]))
        else {
            return Self.notFound(request)
        }
        if rest.count == 2 && rest[1] == "cover" { return try await coverChange(request, id: id) }
        switch (request.method, rest.count) {
        case (.PATCH, 1):
            let body = try Self.decode(EditRequest.self, request)
            let author = try author(request, body.author)
            return .json(try await library.edit(id, body, author: author))
        case (.DELETE, 1):
            let body = try Self.decode(StepRequest.self, request)
            let author = try author(request, body.author)
            return .json(try await library.delete(id, author: author))
        case (.POST, 2):
            let body = try Self.decode(MoveRequest.self, request)
            let author = try author(request, body.author)
            return .json(try await library.move(id, to: body.to, author: author))
        default:
            return .error(
                .methodNotAllowed, code: "method-not-allowed", "\(request.method) is not a method of \(request.path)")
        }
    }

    /// The author a request names (header, else body or query), checked as `--author` is; the
    /// server's own when it names none.
    func author(_ request: ServerRequest, _ fromBody: String?) throws -> String {
        guard let name = request.header(Self.authorHeader) ?? fromBody else { return defaultAuthor }
        return try checkAuthor(name).get()
    }

    private static func notFound(_ request: ServerRequest) -> ServerResponse {
        .error(
            .notFound, code: "not-found", "no such route: \(request.method) \(LibraryError.excerpt(of: request.path))")
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ request: ServerRequest) throws -> T {
        let body = request.body.isEmpty ? Array("{}".utf8) : request.body
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw ServerRefusal("the request body is not the JSON this route takes (see README, “albums serve”)")
        }
    }

    private static func number(_ text: String?, name: String, default value: Int, limit: Int) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), number >= 0 else {
            throw ServerRefusal("\(name) '\(LibraryError.excerpt(of: text))' is not a whole number of 0 or more")
        }
        return min(number, limit)
    }

    /// A library error as a status and its one-line message: refusals of a change that lost a race
    /// or would change nothing are 409 Conflict, a missing album 404, a bad value 400.
    static func response(for error: any Error) -> ServerResponse {
        if let damage = LibraryError(damage: error) {
            return .error(.internalServerError, code: damage.code.rawValue, damage.message)
        }
        guard let error = error as? LibraryError else {
            return .error(.internalServerError, code: "storage", "storage error: \(error)")
        }
        let status: HTTPResponseStatus =
            switch error.code {
            case .albumNotFound: .notFound
            case .invalidValue, .positionOutOfRange: .badRequest
            case .historyChanged, .conflict, .nothingToUndo, .nothingToRedo, .nothingToChange, .ambiguousTitle:
                .conflict
            default: .internalServerError
            }
        return .error(status, code: error.code.rawValue, error.message)
    }
}
