import Foundation
import Testing

/// Standard streams closed at start or full (issue 27: H1, U4, U6), with the real binary.
///
/// A descriptor closed at start is taken by the next file opened: `import -` with standard input
/// closed read libdispatch's event descriptor and blocked forever. Now each closed one is filled
/// with /dev/null and refused where used; a change whose report cannot be written is still saved,
/// and albums says so with exit status 3.
@Suite struct ClosedStreamTests {
    typealias Hostile = HostileEnvironmentTests

    @Test func importFromAClosedStandardInputIsRefusedAtOnce() async throws {
        let (folder, cli) = try await Hostile.makeLibrary("stdin-closed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FolderSnapshot(folder.path)
        let result = try await Hostile.shell("exec \"$0\" \"$@\" <&-", ["--db", cli.database, "import", "-"])
        Hostile.expectOneLineFailure(
            result, containing: "cannot read standard input: it was closed when albums started", "import - <&-")
        #expect(try FolderSnapshot(folder.path) == before)
    }

    @Test func aReadWithStandardOutputClosedFailsAndChangesNothing() async throws {
        let (folder, cli) = try await Hostile.makeLibrary("stdout-closed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FolderSnapshot(folder.path)
        for arguments in [["export"], ["list"], ["--json", "history"]] {
            let result = try await Hostile.shell("exec \"$0\" \"$@\" >&-", ["--db", cli.database] + arguments)
            Hostile.expectOneLineFailure(
                result, containing: "cannot write to standard output: it was closed when albums started", "\(arguments)"
            )
        }
        let full = try await Hostile.shell("exec \"$0\" \"$@\" >/dev/full", ["--db", cli.database, "list"])
        Hostile.expectOneLineFailure(
            full, containing: "cannot write to standard output: No space left on device", "full")
        #expect(try FolderSnapshot(folder.path) == before)
    }

    @Test(arguments: ["exec \"$0\" \"$@\" >&-", "exec \"$0\" \"$@\" >/dev/full"])
    func aChangeWhoseReportIsLostIsSavedAndSaysSoWithStatusThree(script: String) async throws {
        let (folder, cli) = try await Hostile.makeLibrary("report-lost")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await cli("--json", "show", "1")
        let result = try await Hostile.shell(script, ["--db", cli.database, "delete", "1"])
        Hostile.expectOneLineFailure(
            result, containing: "the change is saved, but its report could not be written to standard output",
            status: 3, script)
        // It is saved: the album is gone and the step is in the history, ready to undo.
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any])
        let title = try #require(shown["title"] as? String)
        let history = try await cli("history")
        #expect(history.output.contains("Delete “\(title)”"), "\(history)")
        let list = try await cli("--json", "list")
        #expect(!list.output.contains(try #require(shown["id"] as? String)), "\(list)")
    }
}
