import Foundation
import Locking
import TestSupport
import Testing

/// Many API clients and a CLI process changing one library at once through `albums serve`: the
/// server serializes its session, every change commits exactly one revision and says which, and
/// nothing is lost or answered twice.
@Suite("albums serve: concurrent clients")
struct ServeConcurrencyTests {
    static let seed: UInt64 = 23
    static let clients = 8
    static let operationsPerClient = 25

    @Test("8 API clients and the CLI: one revision per change, all distinct, none lost; refusals only 404 or 409")
    func concurrentClientsLoseNothing() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let start = try #require(try await RawHTTP.send("GET", "/api/state", port: port).json["revision"] as? Int)
        let revisions = LockedState<[Int]>([])
        let unexpected = LockedState<[String]>([])

        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<Self.clients {
                group.addTask {
                    var generator = SplitMix64(seed: Self.seed &+ UInt64(client))
                    for step in 0..<Self.operationsPerClient {
                        let response = try await Self.randomChange(
                            client: client, step: step, port: port, using: &generator)
                        if (200..<300).contains(response.status), let revision = response.json["revision"] as? Int {
                            revisions.withLock { $0.append(revision) }
                        } else if response.status != 404 && response.status != 409 {
                            unexpected.withLock { $0.append("client \(client) step \(step): \(response)") }
                        }
                    }
                }
            }
            group.addTask {
                for number in 0..<10 {
                    let added = try await server.cli("--json", "add", "--title", "CLI \(number)", "--artist", "Shell")
                    let object = try? JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any]
                    if let revision = object?["revision"] as? Int {
                        revisions.withLock { $0.append(revision) }
                    } else {
                        unexpected.withLock { $0.append("the CLI's add \(number): \(added.status) \(added.output)") }
                    }
                }
            }
            try await group.waitForAll()
        }

        let committed = revisions.withLock { $0 }
        #expect(unexpected.withLock { $0 }.isEmpty, "seed \(Self.seed): \(unexpected.withLock { $0 })")
        #expect(Set(committed).count == committed.count, "seed \(Self.seed): a revision answered twice")
        let end = try #require(try await RawHTTP.send("GET", "/api/state", port: port).json["revision"] as? Int)
        #expect(
            end - start == committed.count, "seed \(Self.seed): \(committed.count) changes, revisions \(start)…\(end)")
        #expect(committed.sorted() == Array((start + 1)...end), "seed \(Self.seed)")
        #expect(committed.count > Self.clients * Self.operationsPerClient / 3, "too few changes committed")
    }

    /// One client's random change: add, delete the first album, undo or redo the step it saw.
    static func randomChange(
        client: Int, step: Int, port: Int, using generator: inout SplitMix64
    ) async throws -> RawHTTP.Response {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            return try await RawHTTP.change(
                "POST", "/api/albums", port: port,
                json: ["title": "Client \(client) step \(step)", "artist": "Client \(client)", "author": "c\(client)"])
        case 1:
            let state = try await RawHTTP.send("GET", "/api/state?limit=1", port: port)
            let id = (state.json["albums"] as? [[String: Any]])?.first?["id"] as? String ?? UUID().uuidString
            return try await RawHTTP.change("DELETE", "/api/albums/\(id)", port: port)
        case 2:
            let state = try await RawHTTP.send("GET", "/api/state?limit=1", port: port)
            let expecting = (state.json["undo"] as? [String: Any])?["id"] as? String
            return try await RawHTTP.change(
                "POST", "/api/undo", port: port, json: expecting.map { ["expecting": $0] } ?? [:])
        default:
            let state = try await RawHTTP.send("GET", "/api/state?limit=1", port: port)
            let expecting = (state.json["redo"] as? [String: Any])?["id"] as? String
            return try await RawHTTP.change(
                "POST", "/api/redo", port: port, json: expecting.map { ["expecting": $0] } ?? [:])
        }
    }
}
