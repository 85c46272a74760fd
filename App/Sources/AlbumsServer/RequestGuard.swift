import Locking
import NIOHTTP1

/// The checks every request passes before any route sees it: the Host it names (DNS rebinding),
/// its Origin, its token, and for a change the same-origin header (CSRF).
struct RequestGuard: Sendable {
    /// The header the page sends with every change. A cross-site form or image cannot set a
    /// custom header, and a cross-site script that tries is stopped by CORS (we answer no preflight).
    static let sameOriginHeader = "X-Albums-Request"
    /// The cookie that carries the token for the page, set when it is opened with `?token=`.
    static let tokenCookie = "albums_token"

    let host: String
    /// The port the socket listens on (set once it is bound, for port 0).
    let port: LockedState<Int>
    let token: String?

    /// `nil` when the request may go on, else the refusal to send.
    func refusal(for request: ServerRequest) -> ServerResponse? {
        guard let hostHeader = request.header("host"), isAllowedHost(hostHeader) else {
            return .error(.misdirectedRequest, code: "bad-host", "this server does not answer for that Host")
        }
        if let origin = request.header("origin"), origin != "http://" + hostHeader {
            return .error(.forbidden, code: "bad-origin", "requests from another site are refused")
        }
        if let fetchSite = request.header("sec-fetch-site"), fetchSite == "cross-site" {
            return .error(.forbidden, code: "bad-origin", "requests from another site are refused")
        }
        let bearer = bearerToken(request)
        if let token {
            let given = bearer ?? request.cookie(Self.tokenCookie) ?? openingToken(request)
            guard let given, Self.sameSecret(given, token) else {
                return .error(
                    .unauthorized, code: "unauthorized",
                    "this server needs its token (open the URL it printed, or send Authorization: Bearer TOKEN)")
            }
        }
        if request.isMutating, request.header(Self.sameOriginHeader) == nil, bearer == nil || token == nil {
            return .error(
                .forbidden, code: "missing-header",
                "a change needs the \(Self.sameOriginHeader) header (or the token as a bearer)")
        }
        return nil
    }

    /// The token a page is opened with (`/?token=…`), accepted on the page itself only.
    private func openingToken(_ request: ServerRequest) -> String? {
        request.method == .GET && request.path == "/" ? request.query["token"] : nil
    }

    private func bearerToken(_ request: ServerRequest) -> String? {
        guard let value = request.header("authorization"), value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    /// The names this server answers for: a loopback name on a loopback address, else the host
    /// given (any name on a wildcard address, where the token guards every request).
    func isAllowedHost(_ header: String) -> Bool {
        let suffix = ":\(port.withLock { $0 })"
        guard header.hasSuffix(suffix) else { return false }
        let name = String(header.dropLast(suffix.count)).lowercased()
        if ServerConfiguration.isLoopback(host) {
            return name == "localhost" || name == "[::1]"
                || name.hasPrefix("127.") && name.allSatisfy { $0.isNumber || $0 == "." }
        }
        if ServerConfiguration.isWildcard(host) { return !name.isEmpty }
        return name == host.lowercased() || "[\(host.lowercased())]" == name
    }

    /// Compares secrets in time that does not depend on where they differ.
    static func sameSecret(_ given: String, _ secret: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(secret.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count {
            difference |= b[index] ^ (index < a.count ? a[index] : 0)
        }
        return difference == 0
    }
}
