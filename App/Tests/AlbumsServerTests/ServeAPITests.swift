import Foundation
import NIOCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `albums serve` driven over HTTP as a script or the page would: every change decided in its
/// transaction, a stale page refused with the library's message, the CLI's changes announced.
@Suite("albums serve: the JSON API")
struct ServeAPITests {
    @Test("add, delete, undo and redo, each answering with the step and revision it committed")
    func addDeleteUndoRedo() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port

        let start = try await RawHTTP.send("GET", "/api/state", port: port)
        #expect(start.status == 200)
        #expect(start.json["count"] as? Int == 5)
        #expect(start.json["undo"] == nil)

        let added = try await RawHTTP.change(
            "POST", "/api/albums", port: port, json: ["title": "Blue Train", "artist": "John Coltrane", "year": 1958])
        #expect(added.status == 201, "\(added)")
        #expect(added.json["message"] as? String == "Added “Blue Train” (position 6)")
        let addedRevision = try #require(added.json["revision"] as? Int)
        let album = try #require(added.json["album"] as? [String: Any])
        let id = try #require(album["id"] as? String)

        let afterAdd = try await RawHTTP.send("GET", "/api/state?offset=5&limit=10", port: port)
        #expect(afterAdd.json["count"] as? Int == 6)
        #expect(afterAdd.json["revision"] as? Int == addedRevision)
        let window = try #require(afterAdd.json["albums"] as? [[String: Any]])
        #expect(window.map { $0["title"] as? String } == ["Blue Train"])
        #expect(window.first?["position"] as? Int == 6)

        let deleted = try await RawHTTP.change("DELETE", "/api/albums/\(id)", port: port)
        #expect(deleted.status == 200, "\(deleted)")
        #expect(deleted.json["steps"] as? [String] == ["Delete “Blue Train”"])
        #expect(try #require(deleted.json["revision"] as? Int) > addedRevision)

        let state = try await RawHTTP.send("GET", "/api/state", port: port)
        let undo = try #require(state.json["undo"] as? [String: Any])
        #expect(undo["title"] as? String == "Delete “Blue Train”")
        #expect(undo["author"] as? String == "server-user")
        let undone = try await RawHTTP.change(
            "POST", "/api/undo", port: port, json: ["expecting": try #require(undo["id"] as? String)])
        #expect(undone.status == 200, "\(undone)")
        #expect(undone.json["message"] as? String == "Undid Delete “Blue Train”")

        let redoState = try await RawHTTP.send("GET", "/api/state", port: port)
        let redo = try #require(redoState.json["redo"] as? [String: Any])
        // The history panel: newest first, the undone step marked.
        let steps = try #require(redoState.json["history"] as? [[String: Any]])
        #expect(steps.map { $0["text"] as? String } == ["Delete “Blue Train”", "Add “Blue Train”"])
        #expect(steps.map { $0["number"] as? Int } == [2, 1])
        #expect(steps.map { $0["done"] as? Bool } == [false, true])
        #expect(redoState.json["count"] as? Int == 6)
        let redone = try await RawHTTP.change(
            "POST", "/api/redo", port: port, json: ["expecting": try #require(redo["id"] as? String)])
        #expect(redone.status == 200, "\(redone)")

        // The CLI sees what the server committed, and who made it.
        let history = try await server.cli("history")
        #expect(history.output.contains("Delete “Blue Train”"), "\(history.output)")
        #expect(history.output.contains("server-user"), "\(history.output)")
        #expect(try await server.cli("list").output.contains("Blue Train") == false)
    }

    @Test("edit and move by id, decided in their transaction; a change that changes nothing is 409")
    func editAndMove() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let id = try await firstID(port)
        let edited = try await RawHTTP.change(
            "PATCH", "/api/albums/\(id)", port: port, json: ["title": "Best of Bowie (2002)", "year": NSNull()])
        #expect(edited.status == 200, "\(edited)")
        #expect(edited.json["message"] as? String == "Edited “Best of Bowie (2002)” (position 1)")
        let album = try #require(edited.json["album"] as? [String: Any])
        #expect(album["title"] as? String == "Best of Bowie (2002)" && album["year"] == nil)
        let again = try await RawHTTP.change(
            "PATCH", "/api/albums/\(id)", port: port, json: ["title": "Best of Bowie (2002)"])
        #expect(again.status == 409)
        #expect(again.errorMessage == "“Best of Bowie (2002)” already has those values: nothing to edit")
        let badYear = try await RawHTTP.change("PATCH", "/api/albums/\(id)", port: port, json: ["year": 0])
        #expect(badYear.status == 400)

        // Another process moves it first: the move by id finds it where it is now.
        #expect(try await server.cli("move", "1", "3").status == 0)
        let moved = try await RawHTTP.change("POST", "/api/albums/\(id)/move", port: port, json: ["to": 5])
        #expect(moved.status == 200, "\(moved)")
        #expect(moved.json["message"] as? String == "Moved “Best of Bowie (2002)” from position 3 to 5")
        #expect(try await titlesShown(port).last == "Best of Bowie (2002)")
        let outside = try await RawHTTP.change("POST", "/api/albums/\(id)/move", port: port, json: ["to": 9])
        #expect(outside.status == 400, "\(outside)")
        let search = try await RawHTTP.send("GET", "/api/state?q=of+bowie+%282002", port: port)
        #expect(search.json["count"] as? Int == 1)
        #expect((search.json["albums"] as? [[String: Any]])?.first?["position"] as? Int == 5)
    }

    @Test("an undo from a page that shows a step another process has since covered is refused, 409")
    func staleUndoIsRefused() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        _ = try await RawHTTP.change("DELETE", "/api/albums/\(try await firstID(port))", port: port)
        let shown = try await RawHTTP.send("GET", "/api/state", port: port)
        let expecting = try #require((shown.json["undo"] as? [String: Any])?["id"] as? String)

        // Another process changes the history behind the page's back.
        #expect(try await server.cli("delete", "1").status == 0)

        let refused = try await RawHTTP.change("POST", "/api/undo", port: port, json: ["expecting": expecting])
        #expect(refused.status == 409, "\(refused)")
        #expect(
            refused.errorMessage
                == "another process changed the history: the step to undo is now “Delete “It's My Life””; nothing was done"
        )
        // Nothing was undone.
        let after = try await RawHTTP.send("GET", "/api/state", port: port)
        #expect(after.json["count"] as? Int == 3)

        let notAStep = try await RawHTTP.change("POST", "/api/undo", port: port, json: ["expecting": "x:y"])
        #expect(notAStep.status == 400)
        let gone = try await RawHTTP.change("DELETE", "/api/albums/\(UUID().uuidString)", port: port)
        #expect(gone.status == 404, "\(gone)")
    }

    @Test("a change made by the CLI reaches an open event stream as its new revision")
    func cliChangeAppearsAsEvent() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the stream opened") { stream.text.contains("event: revision\ndata: {\"revision\":0}") }
        #expect(stream.text.hasPrefix("HTTP/1.1 200 OK"))
        #expect(stream.text.lowercased().contains("content-type: text/event-stream"))

        let added = try await server.cli("--json", "add", "--title", "From the CLI", "--artist", "Someone")
        #expect(added.status == 0)
        let revision = try #require(
            (try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])?["revision"] as? Int)
        try await eventually("the CLI's revision arrived") {
            stream.text.contains("data: {\"revision\":\(revision)}")
        }
    }

    @Test("undo mine, with the author a page names, keeps another author's later change")
    func undoMineByAuthor() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let mine = try await RawHTTP.change(
            "POST", "/api/albums", port: port, json: ["title": "Mine", "artist": "Ada", "author": "ada"])
        #expect(mine.status == 201)
        let theirs = try await RawHTTP.change(
            "POST", "/api/albums", port: port, json: ["title": "Theirs", "artist": "Bob"],
            headers: ["X-Albums-Author": "bob"])
        #expect(theirs.status == 201)
        let undone = try await RawHTTP.change("POST", "/api/undo-mine", port: port, json: ["author": "ada"])
        #expect(undone.status == 200, "\(undone)")
        let titles = try await titlesShown(port)
        #expect(titles.contains("Theirs") && !titles.contains("Mine"), "\(titles)")
        let redone = try await RawHTTP.change("POST", "/api/redo-mine", port: port, json: ["author": "ada"])
        #expect(redone.status == 200, "\(redone)")
        #expect(try await titlesShown(port).contains("Mine"))

        let badName = try await RawHTTP.change("POST", "/api/undo-mine", port: port, json: ["author": "a\u{7}b"])
        #expect(badName.status == 400)
        #expect(badName.errorMessage == "author: a name cannot hold control characters")
        let nothing = try await RawHTTP.change("POST", "/api/undo-mine", port: port, json: ["author": "carol"])
        #expect(nothing.status == 409, "\(nothing)")
    }

    @Test("the state previews each author's own undo: ada's delete stays hers after grace's add")
    func statePreviewsUndoMine() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let id = try await firstID(port)
        let deleted = try await RawHTTP.change("DELETE", "/api/albums/\(id)", port: port, json: ["author": "ada"])
        #expect(deleted.status == 200 && deleted.json["author"] as? String == "ada", "\(deleted)")
        let added = try await RawHTTP.change(
            "POST", "/api/albums", port: port, json: ["title": "Blue Train", "artist": "John Coltrane"],
            headers: ["X-Albums-Author": "grace"])
        #expect(added.status == 201 && added.json["author"] as? String == "grace", "\(added)")

        // Everyone's Undo names grace's add; ada's own names her delete; the header names her too.
        let ada = try await RawHTTP.send("GET", "/api/state?author=ada&mine=1", port: port)
        #expect((ada.json["undo"] as? [String: Any])?["title"] as? String == "Add “Blue Train”")
        #expect(Self.mine(ada, "author") as? String == "ada")
        #expect(Self.mine(ada, "undo") as? [String: String] == ["text": "Delete “Best of Bowie”"])
        #expect(
            Self.mine(ada, "redo") as? [String: String] == [
                "refused": "ada has no undone change to redo", "code": "nothing-to-redo",
            ])
        let byHeader = try await RawHTTP.send(
            "GET", "/api/state?mine=1", port: port, headers: ["X-Albums-Author": "ada"])
        #expect(Self.mine(byHeader, "undo") as? [String: String] == ["text": "Delete “Best of Bowie”"])
        let grace = try await RawHTTP.send("GET", "/api/state?author=grace&mine=1", port: port)
        #expect(Self.mine(grace, "undo") as? [String: String] == ["text": "Add “Blue Train”"])
        // Not asked for: no preview (each is a scan back to the author's latest step).
        #expect(try await RawHTTP.send("GET", "/api/state?author=ada", port: port).json["mine"] == nil)
        // No name: the server's author, who made nothing.
        let nobody = try await RawHTTP.send("GET", "/api/state?mine=1", port: port)
        #expect(Self.mine(nobody, "author") as? String == "server-user")
        #expect(
            Self.mine(nobody, "undo") as? [String: String] == [
                "refused": "server-user has no change to undo", "code": "nothing-to-undo",
            ])
        let badName = try await RawHTTP.send("GET", "/api/state?author=a%07b", port: port)
        #expect(badName.status == 400)
        #expect(badName.errorMessage == "author: a name cannot hold control characters")
        let tooLong = try await RawHTTP.send(
            "GET", "/api/state?author=\(String(repeating: "x", count: 65))", port: port)
        #expect(tooLong.errorMessage == "author: a name is at most 64 characters (this one has 65)")

        // ada's undo mine takes back her delete and keeps grace's add; the answer names both.
        let undone = try await RawHTTP.change("POST", "/api/undo-mine", port: port, json: ["author": "ada"])
        #expect(undone.status == 200, "\(undone)")
        #expect(undone.json["author"] as? String == "ada")
        #expect(undone.json["step"] as? String == "Delete “Best of Bowie”")
        #expect(undone.json["how"] as? String == "reverted")
        #expect(undone.json["stepNumber"] as? Int == 1)
        #expect(
            undone.json["message"] as? String == "Undid your Delete “Best of Bowie” (step 1), keeping the later changes"
        )
        let titles = try await titlesShown(port)
        #expect(titles.contains("Best of Bowie") && titles.contains("Blue Train"), "\(titles)")
        let after = try await RawHTTP.send("GET", "/api/state?author=ada&mine=1", port: port)
        #expect(
            Self.mine(after, "undo") as? [String: String] == [
                "refused": "ada has no change to undo", "code": "nothing-to-undo",
            ])
        #expect(Self.mine(after, "redo") as? [String: String] == ["text": "Delete “Best of Bowie”"])
    }

    @Test("grace edits the year after ada's year edit: ada's preview and her undo mine are refused naming grace")
    func undoMineConflictNamesTheOtherAuthor() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let port = server.port
        let id = try await firstID(port)
        let hers = try await RawHTTP.change(
            "PATCH", "/api/albums/\(id)", port: port, json: ["year": 1990, "author": "ada"])
        #expect(hers.status == 200, "\(hers)")
        let theirs = try await RawHTTP.change(
            "PATCH", "/api/albums/\(id)", port: port, json: ["year": 2002, "author": "grace"])
        #expect(theirs.status == 200, "\(theirs)")
        let reason = "grace changed the year of “Best of Bowie” after your edit (step 2)"
        let ada = try await RawHTTP.send("GET", "/api/state?author=ada&mine=1", port: port)
        #expect(Self.mine(ada, "undo") as? [String: String] == ["refused": reason, "code": "conflict"])
        // Asked again at the same revision (kept per revision and author): the same answer.
        let again = try await RawHTTP.send("GET", "/api/state?author=ada&limit=1&mine=1", port: port)
        #expect(Self.mine(again, "undo") as? [String: String] == ["refused": reason, "code": "conflict"])
        let refused = try await RawHTTP.change("POST", "/api/undo-mine", port: port, json: ["author": "ada"])
        #expect(refused.status == 409, "\(refused)")
        #expect(refused.errorMessage == reason)
        let state = try await RawHTTP.send("GET", "/api/state?limit=1", port: port)
        #expect((state.json["albums"] as? [[String: Any]])?.first?["year"] as? Int == 2002)
        #expect(state.json["revision"] as? Int == ada.json["revision"] as? Int, "nothing was written")
        // grace's own edit is the last step: hers would be undone plainly.
        let graces = try await RawHTTP.send("GET", "/api/state?author=grace&mine=1", port: port)
        #expect(Self.mine(graces, "undo") as? [String: String] == ["text": "Edit “Best of Bowie”"])

        // The history panel numbers steps as `albums history` and the refusals do: by node, so
        // after an undo and a new step (grace's edit parked on a branch) the numbers skip.
        let undo = try #require((graces.json["undo"] as? [String: Any])?["id"] as? String)
        #expect(try await RawHTTP.change("POST", "/api/undo", port: port, json: ["expecting": undo]).status == 200)
        _ = try await RawHTTP.change("POST", "/api/albums", port: port, json: ["title": "New", "artist": "Ada"])
        let panel = try await RawHTTP.send("GET", "/api/state", port: port)
        let steps = try #require(panel.json["history"] as? [[String: Any]])
        #expect(steps.map { $0["number"] as? Int } == [3, 1], "\(steps)")
        let listing = try await server.cli("history").output
        #expect(listing.split(separator: "\n").contains { $0.hasPrefix("> 3 ") }, "\(listing)")
    }

    @Test("SIGTERM: a request in progress is answered, event streams end, the server exits 0")
    func sigtermLetsRequestsFinish() async throws {
        // ServerProcess makes the library with `albums init` before the gated server starts (the
        // gate pauses every commit, seeding the defaults too).
        let gate = try Self.makeCommitGate()
        defer { try? FileManager.default.removeItem(at: gate) }
        // The stop waits for the held add as long as the test may take to let it go (a loaded
        // machine once took longer than the 5 seconds a user's stop waits, and the add was cut).
        let server = try await ServerProcess(environment: [
            "ALBUMS_TEST_COMMIT_GATE": gate.path,
            "ALBUMS_TEST_DRAIN_MS": "\(Patience.condition.components.seconds * 1000)",
        ])
        defer { Task { await server.finish() } }
        let port = server.port
        let (stream, events) = try await RawHTTP.open(
            port: port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: port))
        defer { stream.close(promise: nil) }
        try await eventually("the stream opened") { events.text.contains("event: revision") }

        // An add that waits inside its transaction until the test lets it commit.
        let body = Array(#"{"title":"Last One","artist":"Someone"}"#.utf8)
        let (channel, answer) = try await RawHTTP.open(
            port: port,
            bytes: RawHTTP.requestBytes(
                "POST", "/api/albums", port: port, headers: ["X-Albums-Request": "1"], body: body))
        defer { channel.close(promise: nil) }
        let waiting = gate.appendingPathComponent("waiting-\(server.process.processIdentifier)").path
        try await eventually("the add is inside its transaction") { FileManager.default.fileExists(atPath: waiting) }

        kill(server.process.processIdentifier, SIGTERM)
        try await eventually("the event stream ended") { events.isEnded }
        #expect(server.process.isRunning, "it waits for the add in progress")
        _ = FileManager.default.createFile(atPath: gate.appendingPathComponent("go").path, contents: nil)

        // No second signal: that would escalate, cutting the add short.
        #expect(await server.waitForExit() == 0, "\(server.standardError)")
        try await channel.closeFuture.get()  // the answer's last bytes read
        let response = try RawHTTP.parse(answer.received)
        #expect(response.status == 201, "\(response)")
        #expect(try await server.cli("list").output.contains("Last One"))
    }

    @Test("a second SIGTERM escalates: the wait for a request in progress is cut short")
    func secondSignalEscalates() async throws {
        // ServerProcess makes the library with `albums init` before the gated server starts (the
        // gate pauses every commit, seeding the defaults too).
        let gate = try Self.makeCommitGate()
        defer { try? FileManager.default.removeItem(at: gate) }
        let server = try await ServerProcess(environment: ["ALBUMS_TEST_COMMIT_GATE": gate.path])
        defer { Task { await server.finish() } }
        let port = server.port
        let body = Array(#"{"title":"Cut Short","artist":"Someone"}"#.utf8)
        let (channel, answer) = try await RawHTTP.open(
            port: port,
            bytes: RawHTTP.requestBytes(
                "POST", "/api/albums", port: port, headers: ["X-Albums-Request": "1"], body: body))
        defer { channel.close(promise: nil) }
        let waiting = gate.appendingPathComponent("waiting-\(server.process.processIdentifier)").path
        try await eventually("the add is inside its transaction") { FileManager.default.fileExists(atPath: waiting) }

        kill(server.process.processIdentifier, SIGTERM)
        try await eventually("the listener closed") { !Self.accepts(port) }
        kill(server.process.processIdentifier, SIGTERM)
        // The stop no longer waits for the add: its connection is closed unanswered.
        try await eventually("the add's connection was closed") { answer.isEnded }
        #expect(answer.received.isEmpty)
        _ = FileManager.default.createFile(atPath: gate.appendingPathComponent("go").path, contents: nil)
        #expect(await server.waitForExit() == 0, "\(server.standardError)")
    }

    /// Whether something accepts connections on 127.0.0.1:`port` now.
    private static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    /// `mine.KEY` of a state answer.
    private static func mine(_ state: RawHTTP.Response, _ key: String) -> Any? {
        (state.json["mine"] as? [String: Any])?[key]
    }

    private func firstID(_ port: Int) async throws -> String {
        let state = try await RawHTTP.send("GET", "/api/state?limit=1", port: port)
        return try #require((state.json["albums"] as? [[String: Any]])?.first?["id"] as? String)
    }

    private func titlesShown(_ port: Int) async throws -> [String] {
        let state = try await RawHTTP.send("GET", "/api/state", port: port)
        return (state.json["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    /// A folder for `ALBUMS_TEST_COMMIT_GATE`: each commit of the server waits in it until let go.
    private static func makeCommitGate() throws -> URL {
        let gate = FileManager.default.temporaryDirectory.appendingPathComponent("albums-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: gate, withIntermediateDirectories: true)
        return gate
    }
}
