import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// A view in this process follows another process's commits on its next read, with no
/// `refresh()`: the texts, records and flags a control shows name the step undo would undo.
@Suite struct CrossProcessTextsTests {
    /// Runs the crash child with `arguments` (it commits one step and exits) and returns its line.
    static func other(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = try CrashTests.childURL()
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exit = try await ProcessExit.run(process, timeout: Patience.childProcess)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        guard !exit.timedOut, process.terminationStatus == 0 else {
            throw CrashTests.ChildError(
                message: "\(arguments) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// A reader of any store's history: no schema of its own, no command kind registered (texts
    /// and records are read without decoding).
    static func openViewer(_ path: String) throws -> DurableHistory<NumberList> {
        let db = try Database.openStore(path: path, schemas: [])
        return try DurableHistory(database: db, receiver: NumberList(database: db), registry: CommandRegistry())
    }

    @Test func anotherProcesssCommitsShowOnTheNextReadWithoutRefresh() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("shared.sqlite")
        // Given: another process made one step, and this view has read its texts.
        #expect(try await Self.other(["push", path, "1"]) == "pushed set:c0=1")
        let view = try Self.openViewer(path)
        let changes = view.changes
        #expect(view.undoText == "set:c0=1" && view.canUndo && !view.canRedo && view.count == 1)

        // When: the other process pushes again, then undoes.
        #expect(try await Self.other(["push", path, "2"]) == "pushed set:c0=2")
        // Then: each read names the committed state, texts cached from before or not.
        #expect(view.undoText == "set:c0=2")
        #expect(view.undoRecord?.text == "set:c0=2")
        #expect(view.count == 2 && view.index == 2 && !view.canRedo)

        #expect(try await Self.other(["undo", path]) == "undone set:c0=2")
        #expect(view.canRedo)
        #expect(view.redoText == "set:c0=2" && view.undoText == "set:c0=1")
        #expect(view.redoRecord?.text == "set:c0=2" && view.undoRecord?.text == "set:c0=1")
        #expect(view.state.index == 1 && view.state.count == 2)

        // The reads told the observers; nothing is left for refresh() to find.
        #expect(try view.refresh() == false)
        var seen: [UndoChange] = []
        for await change in changes {
            seen.append(change)
            if seen.count == 2 { break }
        }
        #expect(seen.map(\.operation) == [.reload, .reload])
        #expect(seen.map(\.new.index) == [2, 1])
        #expect(seen[1].new.redoText == "set:c0=2")
    }
}
