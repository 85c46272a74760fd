import Foundation
import TestSupport
import Testing

/// The rules that keep `albums serve` safe by default: loopback unless told, a token off it,
/// Host and Origin checked, changes only with the same-origin header, bounded requests, fixed
/// routes, and hostile titles kept as data.
@Suite("albums serve: safe by default")
struct ServeSecurityTests {
    @Test("off loopback every request needs the token: 401 without it, a bearer or the page's cookie with it")
    func tokenOffLoopback() async throws {
        let server = try await ServerProcess(arguments: ["--host", "0.0.0.0", "--token", "s3cret-token-42"])
        defer { Task { await server.finish() } }
        let port = server.port
        #expect(server.url.hasSuffix("/?token=s3cret-token-42"))

        let refused = try await RawHTTP.send("GET", "/api/state", port: port)
        #expect(refused.status == 401)
        #expect(refused.errorMessage?.hasPrefix("this server needs its token") == true)
        #expect(try await RawHTTP.send("GET", "/", port: port).status == 401)
        let wrong = try await RawHTTP.send("GET", "/api/state", port: port, headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 401)

        let bearer = try await RawHTTP.send(
            "GET", "/api/state", port: port, headers: ["Authorization": "Bearer s3cret-token-42"])
        #expect(bearer.status == 200)
        // A script with the token may change without the page's header.
        let scripted = try await RawHTTP.send(
            "POST", "/api/undo", port: port, headers: ["Authorization": "Bearer s3cret-token-42"])
        #expect(scripted.status == 409, "\(scripted)")  // nothing to undo: past the guard

        // The page opened with ?token= gets a cookie that carries it from then on.
        let page = try await RawHTTP.send("GET", "/?token=s3cret-token-42", port: port)
        #expect(page.status == 200)
        let cookie = try #require(page.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let withCookie = try await RawHTTP.send(
            "GET", "/api/state", port: port, headers: ["Cookie": "albums_token=s3cret-token-42"])
        #expect(withCookie.status == 200)
        // The query token opens the page only, never the API.
        #expect(try await RawHTTP.send("GET", "/api/state?token=s3cret-token-42", port: port).status == 401)
    }

    @Test("a port in use is one line and exit 1")
    func portInUse() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let second = try await server.cli("serve", "--port", "\(server.port)")
        #expect(second.status == 1)
        #expect(second.output == "albums: serve: cannot listen on 127.0.0.1:\(server.port): Address already in use\n")
    }

    @Test("a token is generated and printed once when --host is not loopback and none is given")
    func generatedToken() async throws {
        let server = try await ServerProcess(arguments: ["--host", "0.0.0.0"])
        defer { Task { await server.finish() } }
        let token = try #require(server.token)
        #expect(token.count == 32)
        #expect(try await RawHTTP.send("GET", "/api/state", port: server.port).status == 401)
        let allowed = try await RawHTTP.send(
            "GET", "/api/state", port: server.port, headers: ["Authorization": "Bearer \(token)"])
        #expect(allowed.status == 200)
    }

    @Test("a foreign Host (DNS rebinding), a foreign Origin and a change without the header are refused")
    func hostOriginAndHeader() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        #expect(server.token == nil)
        let rebound = try await RawHTTP.send("GET", "/api/state", port: port, headers: ["Host": "evil.example:\(port)"])
        #expect(rebound.status == 421)
        #expect(try await RawHTTP.send("GET", "/", port: port, headers: ["Host": "127.0.0.1:1"]).status == 421)
        #expect(try await RawHTTP.send("GET", "/", port: port, headers: ["Host": "localhost:\(port)"]).status == 200)

        let foreign = try await RawHTTP.change(
            "DELETE", "/api/albums/\(UUID().uuidString)", port: port, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        let crossSite = try await RawHTTP.send(
            "GET", "/api/state", port: port, headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(crossSite.status == 403)
        let sameOrigin = try await RawHTTP.send(
            "GET", "/api/state", port: port, headers: ["Origin": "http://127.0.0.1:\(port)"])
        #expect(sameOrigin.status == 200)

        // A form post from anywhere cannot add the header: refused, nothing changes.
        let form = try await RawHTTP.send(
            "POST", "/api/albums", port: port, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Array("title=x&artist=y".utf8))
        #expect(form.status == 403)
        #expect(form.errorMessage?.contains("X-Albums-Request") == true)
        #expect(try await RawHTTP.send("GET", "/api/state", port: port).json["count"] as? Int == 5)
    }

    @Test("bounded requests and fixed routes: a large body is 413, no path reaches a file")
    func limitsAndRoutes() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let large = try await RawHTTP.send(
            "POST", "/api/albums", port: port, headers: ["X-Albums-Request": "1"],
            body: [UInt8](repeating: 0x20, count: 2 << 20))
        #expect(large.status == 413)
        for path in [
            "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/app.js/../../library.sqlite", "/api/albums/..",
            "/api/state/../../x",
        ] {
            let response = try await RawHTTP.send("GET", path, port: port)
            #expect(response.status == 404, "\(path): \(response.status)")
            #expect(!response.text.contains("root:"))
        }
        let page = try await RawHTTP.send("GET", "/", port: port)
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-inline"))
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(!page.text.contains("<script>"), "no inline script")
        let malformed = try await RawHTTP.change(
            "POST", "/api/albums/\(UUID().uuidString)/move", port: port, json: ["to": "x"])
        #expect(malformed.status == 400)
    }

    @Test("hostile titles round-trip as data: script tags, quotes, RTL marks, the longest title; longer ones refused")
    func hostileTitles() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let titles = [
            "<script>alert(1)</script>", #"\"quoted\" 'single' `back` & &amp; </dd>"#,
            "\u{202E}evil\u{202C} \u{200F}rtl\u{200E}", "<img src=x onerror=alert(1)>",
            String(repeating: "é<", count: 500),
        ]
        for title in titles {
            let added = try await RawHTTP.change(
                "POST", "/api/albums", port: port, json: ["title": title, "artist": "</script><b>"])
            #expect(added.status == 201, "\(added)")
        }
        let state = try await RawHTTP.send("GET", "/api/state?offset=5", port: port)
        let albums = try #require(state.json["albums"] as? [[String: Any]])
        #expect(albums.compactMap { $0["title"] as? String } == titles)
        #expect(albums.allSatisfy { $0["artist"] as? String == "</script><b>" })
        #expect(state.header("Content-Type") == "application/json; charset=utf-8")

        let tooLong = try await RawHTTP.change(
            "POST", "/api/albums", port: port, json: ["title": String(repeating: "x", count: 10_000), "artist": "A"])
        #expect(tooLong.status == 400)
        #expect(tooLong.errorMessage == "title is longer than 1000 characters")
        #expect(try await RawHTTP.send("GET", "/api/state", port: port).json["count"] as? Int == 10)
    }
}
