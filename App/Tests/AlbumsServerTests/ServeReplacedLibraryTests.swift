import Foundation
import NIOCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Another program moves a backup over the served library (`mv`), copies one over it (`cp`) or
/// removes it (`rm`) while `albums serve` has it open (issue 21, item 6): the server reopens the
/// file now at the path and tells every page, never writes into the old file's place, and stops
/// with exit 1 and one line when the file is gone.
@Suite struct ServeReplacedLibraryTests {
    /// A library other than the served one: its own albums, plus "Only In Backup".
    private func makeBackup(beside server: ServerProcess) async throws -> String {
        let backup = server.folder.appendingPathComponent("backup.sqlite").path
        for arguments in [["init", backup], ["--db", backup, "add", "--title", "Only In Backup", "--artist", "X"]] {
            let albums = Process()
            albums.executableURL = ServerProcess.executable
            albums.arguments = arguments
            albums.standardOutput = FileHandle.nullDevice
            _ = try await ProcessExit.run(albums, timeout: Patience.childProcess)
            try #require(albums.terminationStatus == 0, "albums \(arguments)")
        }
        return backup
    }

    /// Waits for the event stream to say the library was reopened, then checks that the page's
    /// state, the CLI and a change made through the server all use the backup.
    private func expectServedBackup(_ server: ServerProcess, stream: RawHTTP.Collector) async throws {
        try await eventually("the pages were told of the reopen") { stream.text.contains("\"reopened\":true") }
        let state = try await RawHTTP.send("GET", "/api/state", port: server.port)
        let albums = try #require(state.json["albums"] as? [[String: Any]])
        #expect(albums.contains { $0["title"] as? String == "Only In Backup" }, "\(albums)")
        let listed = try await server.cli("list")
        #expect(listed.output.contains("Only In Backup"), "the restore was reverted: \(listed)")

        let backupOnly = try #require(albums.first { $0["title"] as? String == "Only In Backup" }?["id"] as? String)
        let deleted = try await RawHTTP.change("DELETE", "/api/albums/\(backupOnly)", port: server.port, json: [:])
        #expect(deleted.status == 200, "\(deleted)")
        let after = try await server.cli("list")
        #expect(after.status == 0 && !after.output.contains("Only In Backup"), "the change went elsewhere: \(after)")
        #expect(after.output.split(separator: "\n").count == 5, "\(after)")
    }

    @Test func aBackupMovedOverTheServedLibraryIsServedAndNeverReverted() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let backup = try await makeBackup(beside: server)
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the stream opened") { stream.text.contains("event: revision") }

        #expect(rename(backup, server.database) == 0)

        try await expectServedBackup(server, stream: stream)
    }

    @Test func aBackupCopiedOverTheServedLibraryIsServedAndNeverReverted() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }
        let backup = try await makeBackup(beside: server)
        let (channel, stream) = try await RawHTTP.open(
            port: server.port, bytes: RawHTTP.requestBytes("GET", "/api/events", port: server.port))
        defer { channel.close(promise: nil) }
        try await eventually("the stream opened") { stream.text.contains("event: revision") }

        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [backup, server.database]
        _ = try await ProcessExit.run(copy, timeout: Patience.childProcess)
        try #require(copy.terminationStatus == 0)

        try await expectServedBackup(server, stream: stream)
    }

    @Test func aRemovedLibraryStopsTheServerWithOneLine() async throws {
        let server = try await ServerProcess()
        defer { Task { await server.finish() } }

        #expect(unlink(server.database) == 0)

        #expect(await server.waitForExit() == 1)
        #expect(
            server.standardError.contains(
                "albums: serve: the library \(server.database) was removed or renamed by another program while it "
                    + "was served; albums stopped without writing to it"),
            "\(server.standardError)")
        #expect(!FileManager.default.fileExists(atPath: server.database))
        #expect(!FileManager.default.fileExists(atPath: server.database + "-wal"))
    }
}
