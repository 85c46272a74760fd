import Foundation
import NIOCore
import Testing

/// Stored covers through the API: `GET /covers/{id}` with its media type, `ETag` and caching
/// headers (304 on a matching `If-None-Match`, 404 when none); `PUT /api/albums/{id}/cover` with
/// the image's bytes, checked by them, under the same rules as every change, its body limit
/// raised for that route only.
extension ServeAPITests {
    static let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a served cover".utf8)

    private func albumID(_ port: Int, at offset: Int = 0) async throws -> String {
        let state = try await RawHTTP.send("GET", "/api/state?limit=5", port: port)
        return try #require((state.json["albums"] as? [[String: Any]])?[offset]["id"] as? String)
    }

    private func upload(
        _ bytes: [UInt8], to id: String, port: Int, headers: [String: String]? = nil
    ) async throws
        -> RawHTTP.Response
    {
        try await RawHTTP.send(
            "PUT", "/api/albums/\(id)/cover", port: port,
            headers: headers ?? ["X-Albums-Request": "1", "Content-Type": "image/png"], body: bytes)
    }

    @Test("a stored cover is served with its type, ETag and caching headers; 304 when unchanged; undo removes it")
    func coverIsServedAndCached() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let id = try await albumID(port)
        #expect(try await RawHTTP.send("GET", "/covers/\(id)", port: port).status == 404)

        let stored = try await upload(Self.png, to: id, port: port)
        #expect(stored.status == 200, "\(stored)")
        #expect(stored.json["message"] as? String == "Set the cover of “Best of Bowie” (position 1)")
        #expect(stored.json["steps"] as? [String] == ["Set the cover of “Best of Bowie”"])
        let state = try await RawHTTP.send("GET", "/api/state?limit=1", port: port)
        let album = try #require((state.json["albums"] as? [[String: Any]])?.first)
        let hash = try #require((album["storedCover"] as? [String: Any])?["hash"] as? String)
        #expect(hash.count == 64)

        let served = try await RawHTTP.send("GET", "/covers/\(id)?v=\(hash)", port: port)
        #expect(served.status == 200)
        #expect(served.body == Data(Self.png))
        #expect(served.header("Content-Type") == "image/png")
        #expect(served.header("ETag") == "\"\(hash)\"")
        #expect(served.header("Cache-Control") == "private, max-age=300, must-revalidate")
        #expect(served.header("X-Content-Type-Options") == "nosniff")
        let again = try await RawHTTP.send(
            "GET", "/covers/\(id)", port: port, headers: ["If-None-Match": "W/\"other\", \"\(hash)\""])
        #expect(again.status == 304 && again.body.isEmpty, "\(again)")
        #expect(again.header("ETag") == "\"\(hash)\"")
        let other = try await RawHTTP.send("GET", "/covers/\(id)", port: port, headers: ["If-None-Match": "\"other\""])
        #expect(other.status == 200)

        // The CLI sees it; the page's Undo takes it away again.
        #expect(try await server.cli("show", "1").output.contains("Image:    image/png"))
        let undo = try #require(
            (try await RawHTTP.send("GET", "/api/state", port: port)).json["undo"] as? [String: Any])
        #expect(undo["title"] as? String == "Set the cover of “Best of Bowie”")
        let undone = try await RawHTTP.change("POST", "/api/undo", port: port, json: ["expecting": undo["id"]!])
        #expect(undone.status == 200, "\(undone)")
        #expect(try await RawHTTP.send("GET", "/covers/\(id)", port: port).status == 404)
        #expect(try await RawHTTP.send("GET", "/covers/not-an-id", port: port).status == 404)
    }

    @Test("an upload that is not an image, or lacks the same-origin header, is refused and records nothing")
    func nonImageIsRefused() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let id = try await albumID(port)
        let text = try await upload(Array("<svg onload=alert(1)>".utf8), to: id, port: port)
        #expect(text.status == 400, "\(text)")
        #expect(text.errorMessage == "the cover is not a PNG, JPEG, WebP or GIF image (checked by its bytes)")
        let bare = try await upload(Self.png, to: id, port: port, headers: ["Content-Type": "image/png"])
        #expect(bare.status == 403, "\(bare)")
        let foreign = try await upload(
            Self.png, to: id, port: port,
            headers: ["X-Albums-Request": "1", "Origin": "http://evil.example", "Content-Type": "image/png"])
        #expect(foreign.status == 403, "\(foreign)")
        let state = try await RawHTTP.send("GET", "/api/state", port: port)
        #expect(state.json["undo"] == nil, "nothing was recorded")
        // Removing a cover the album does not have changes nothing: 409 with the library's words.
        let removal = try await RawHTTP.change("DELETE", "/api/albums/\(id)/cover", port: port)
        #expect(removal.status == 409 && removal.errorMessage?.hasSuffix("nothing to remove") == true, "\(removal)")
    }

    @Test("the body limit is 10 MiB for a cover upload only: one byte more is 413, as is 2 MiB elsewhere")
    func coverSizeLimit() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let id = try await albumID(port)
        let limit = 10 << 20
        let largest = Self.png + [UInt8](repeating: 0x41, count: limit - Self.png.count)
        let stored = try await upload(largest, to: id, port: port)
        #expect(stored.status == 200, "\(stored.status) \(stored.errorMessage ?? "")")
        // One byte more, as its Content-Length says: refused from the head, before the body is read
        // (the bytes sent here are a start only, so the refusal is read before the socket closes).
        let head =
            "PUT /api/albums/\(try await albumID(port, at: 1))/cover HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "X-Albums-Request: 1\r\nContent-Length: \(limit + 1)\r\nConnection: close\r\n\r\n"
        let (channel, collector) = try await RawHTTP.open(port: port, bytes: Array(head.utf8) + Self.png)
        try await channel.closeFuture.get()
        let tooLarge = try RawHTTP.parse(collector.received)
        #expect(tooLarge.status == 413, "\(tooLarge)")
        #expect(tooLarge.errorMessage == "the request body is larger than \(limit) bytes")
        let elsewhere = try await RawHTTP.send(
            "PATCH", "/api/albums/\(id)", port: port, headers: ["X-Albums-Request": "1"],
            body: [UInt8](repeating: 0x20, count: 2 << 20))
        #expect(elsewhere.status == 413, "\(elsewhere)")
        let served = try await RawHTTP.send("GET", "/covers/\(id)", port: port)
        #expect(served.body.count == limit)
    }
}
