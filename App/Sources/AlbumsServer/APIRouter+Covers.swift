import AlbumLibrary
import Foundation
import NIOHTTP1

// Stored cover images: `GET /covers/{id}` serves one (cached by its content hash),
// `PUT /api/albums/{id}/cover` stores one (the body is the image's bytes, checked by them),
// `DELETE /api/albums/{id}/cover` removes it. Each change is one undoable step, as from the CLI.

extension APIRouter {
    /// How long a browser may use a stored cover before it asks again (with `If-None-Match`):
    /// the page names each image by its hash (`?v=`), so a changed cover is a new URL anyway.
    static let coverCacheControl = "private, max-age=300, must-revalidate"

    /// Whether a request head is a cover upload, the one route whose body may be an image.
    static func isCoverUpload(_ head: HTTPRequestHead) -> Bool {
        guard head.method == .PUT else { return false }
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[1] == "api" && parts[2] == "albums" && parts[4] == "cover"
    }

    /// `GET /covers/{id}`: the image with its media type and hash as its `ETag`; 304 when the
    /// browser's `If-None-Match` names it, 404 when the album has no stored cover.
    func coverRoute(_ request: ServerRequest) async throws -> ServerResponse {
        let text = request.path.dropFirst("/covers/".count)
        guard let id = UUID(uuidString: String(text)) else {
            return .error(.notFound, code: "not-found", "no such route: GET \(LibraryError.excerpt(of: request.path))")
        }
        guard let image = try await library.cover(of: id) else {
            return .error(.notFound, code: "no-cover", "the album \(id.uuidString) has no stored cover")
        }
        let tag = "\"\(image.hash)\""
        var response: ServerResponse
        if Self.matches(request.header("If-None-Match"), tag: tag) {
            response = ServerResponse(status: .notModified, contentType: image.mediaType, body: [])
        } else {
            response = ServerResponse(status: .ok, contentType: image.mediaType, body: Array(image.bytes))
        }
        response.cacheControl = Self.coverCacheControl
        response.extraHeaders.append(("ETag", tag))
        return response
    }

    /// `PUT` (the body is the image) and `DELETE` of `/api/albums/{id}/cover`.
    func coverChange(_ request: ServerRequest, id: UUID) async throws -> ServerResponse {
        // The body is the image, so the author comes from the header or `?author=`.
        let author = try author(request, request.query["author"])
        switch request.method {
        case .PUT:
            let image = try CoverImage(bytes: Data(request.body))
            return .json(try await library.setCover(id, to: image, author: author))
        case .DELETE:
            return .json(try await library.setCover(id, to: nil, author: author))
        default:
            return .error(
                .methodNotAllowed, code: "method-not-allowed", "\(request.method) is not a method of \(request.path)")
        }
    }

    /// Whether an `If-None-Match` value (`"a", W/"b"`, or `*`) names `tag`.
    static func matches(_ header: String?, tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("W/") { value.removeFirst(2) }
            return value == "*" || value == tag
        }
    }
}
