import Foundation
import NIOHTTP1

/// One HTTP request as the routes see it: the method, the path and query, the headers that
/// matter, and the whole body (at most ``ServerConfiguration/maximumBodyBytes``).
struct ServerRequest: Sendable {
    var method: HTTPMethod
    /// The path, without the query: never decoded, so `%2e%2e` is no route either.
    var path: String
    /// The query's parameters, decoded.
    var query: [String: String]
    var headers: HTTPHeaders
    var body: [UInt8]

    init(head: HTTPRequestHead, body: [UInt8]) {
        method = head.method
        headers = head.headers
        self.body = body
        let uri = head.uri
        if let mark = uri.firstIndex(of: "?") {
            path = String(uri[..<mark])
            var query: [String: String] = [:]
            // Form encoding, as URLSearchParams writes it: `+` is a space (a literal plus is %2B).
            let encoded = uri[mark...].replacingOccurrences(of: "+", with: "%20")
            for item in URLComponents(string: "http://localhost/" + encoded)?.queryItems ?? [] {
                query[item.name] = item.value ?? ""
            }
            self.query = query
        } else {
            path = uri
            query = [:]
        }
    }

    /// The value of a header, if the request has it once or more (the first).
    func header(_ name: String) -> String? {
        headers.first(name: name)
    }

    /// Whether the method changes something (and so needs the same-origin header or the token).
    var isMutating: Bool {
        method != .GET && method != .HEAD && method != .OPTIONS
    }

    /// The value of a cookie the request carries.
    func cookie(_ name: String) -> String? {
        for line in headers[canonicalForm: "cookie"] {
            for pair in line.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}
