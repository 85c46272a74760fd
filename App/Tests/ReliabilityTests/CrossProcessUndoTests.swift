import Foundation
import TestSupport
import Testing

/// `albums` processes racing on one library: every undo and redo decides inside its own write
/// transaction, from what is committed then, and prints what it did.
///
/// The races are made deterministic with the commit gate (`ALBUMS_TEST_COMMIT_GATE`, see
/// `TestCommitGate`): the first process stops inside its transaction, holding the write lock, while
/// the second one opens the library (reading the history as it is before the first commits) and
/// waits for the lock; then the test lets the first commit. The sequences are those of issue 12,
/// which lost acknowledged data before.
@Suite struct CrossProcessUndoTests {
    struct History: Decodable {
        struct Step: Decodable {
            var done: Bool
            var text: String
        }
        var current: Int
        var steps: [Step]
    }

    struct Export: Decodable, Equatable {
        var id: String
        var title: String
        var artist: String
    }

    /// A gate folder, and how to wait for a process to stop at it and to let it go.
    struct Gate {
        let folder: URL

        init(in parent: URL) throws {
            folder = parent.appendingPathComponent("gate")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        var environment: [String: String] { ["ALBUMS_TEST_COMMIT_GATE": folder.path] }

        /// Waits until a gated process is inside its transaction, about to commit.
        func waitUntilSomeoneWaits() async throws {
            let reached = try await poll(every: .milliseconds(10)) { () -> Bool? in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                return names.contains { $0.hasPrefix("waiting-") } ? true : nil
            }
            if reached != nil { return }
            Issue.record("no process reached the commit gate")
        }

        func open() {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("go").path, contents: nil)
        }
    }

    /// Time for a second process to start, open the library (reading the history as it is then)
    /// and reach its write transaction, where it waits for the lock the gated one holds. The outcome
    /// asserted is the same if it is slower: only the race the old code lost is less likely.
    static let secondProcessHeadStart = Duration.milliseconds(DamagedLibraryTests.isSanitized ? 1500 : 600)

    static func history(_ cli: AlbumsCLI) async throws -> History {
        let result = try await cli("--json", "history")
        try #require(result.status == 0, "\(result)")
        return try JSONDecoder().decode(History.self, from: Data(result.output.utf8))
    }

    static func titles(_ cli: AlbumsCLI) async throws -> [String] {
        let result = try await cli("export")
        try #require(result.status == 0, "\(result)")
        return try JSONDecoder().decode([Export].self, from: Data(result.output.utf8)).map(\.title)
    }

    /// Issue 12's first sequence: an undo waiting for an import's transaction undid the import too
    /// (it jumped to an index computed before the import committed), and the import was lost.
    @Test func anUndoWaitingForAnImportUndoesExactlyTheImportAndSaysSo() async throws {
        let folder = try ChildProcess.makeFolder("undo-vs-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        #expect(try await cli("add", "--title", "Mine", "--artist", "A").status == 0)
        let file = folder.appendingPathComponent("import.json")
        try AlbumsCLI.importFile(count: 300, prefix: "Imported").write(to: file)
        let gate = try Gate(in: folder)

        async let importing = cli.run(["import", file.path], environment: gate.environment)
        try await gate.waitUntilSomeoneWaits()
        async let undoing = cli("undo")
        try await Task.sleep(for: Self.secondProcessHeadStart)
        gate.open()
        let (imported, undone) = try await (importing, undoing)

        #expect(imported.status == 0 && imported.output.hasPrefix("Imported 300 albums"), "\(imported)")
        // The import committed first, so it was the last step: the undo undid it, and only it.
        #expect(undone.status == 0 && undone.output == "Undid Import 300 albums\n", "\(undone)")
        #expect(try await Self.titles(cli).last == "Mine")
        #expect(try await cli("add", "--title", "Mine again", "--artist", "A").status == 0)
        // The acknowledged import is still in the history, below the new step: undo and redo reach it.
        let history = try await Self.history(cli)
        #expect(history.steps.map(\.text).suffix(2) == ["Add “Mine”", "Add “Mine again”"], "\(history)")
        #expect(try await cli("undo").output == "Undid Add “Mine again”\n")
        #expect(try await cli("redo").output == "Redid Add “Mine again”\n")
    }

    /// Issue 12's second sequence: `undo 2` in one process and `undo` in another; the second one
    /// printed "Undid …" but redid a step, and the history ended two steps away from where the
    /// acknowledged commands put it.
    @Test func twoUndosInTwoProcessesUndoThreeStepsInAll() async throws {
        let folder = try ChildProcess.makeFolder("undo-vs-undo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        for title in ["One", "Two", "Three"] {
            #expect(try await cli("add", "--title", title, "--artist", "A").status == 0)
        }
        let gate = try Gate(in: folder)
        async let first = cli.run(["undo", "2"], environment: gate.environment)
        try await gate.waitUntilSomeoneWaits()
        async let second = cli("undo")
        try await Task.sleep(for: Self.secondProcessHeadStart)
        gate.open()
        let (two, one) = try await (first, second)

        #expect(two.status == 0 && two.output == "Undid Add “Three”\nUndid Add “Two”\n", "\(two)")
        #expect(one.status == 0 && one.output == "Undid Add “One”\n", "\(one)")
        let history = try await Self.history(cli)
        #expect(history.current == 0 && history.steps.count == 3, "\(history)")
        #expect(try await Self.titles(cli).count == 5)
    }

    /// A redo waiting for another process's push finds nothing to redo (the push dropped the tail),
    /// and says so instead of redoing something else.
    @Test func aRedoWaitingForAPushFindsTheTailGone() async throws {
        let folder = try ChildProcess.makeFolder("redo-vs-push")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        #expect(try await cli("add", "--title", "Undone", "--artist", "A").status == 0)
        #expect(try await cli("undo").status == 0)
        let gate = try Gate(in: folder)
        async let pushing = cli.run(["add", "--title", "New", "--artist", "B"], environment: gate.environment)
        try await gate.waitUntilSomeoneWaits()
        async let redoing = cli("redo")
        try await Task.sleep(for: Self.secondProcessHeadStart)
        gate.open()
        let (pushed, redone) = try await (pushing, redoing)
        #expect(pushed.status == 0, "\(pushed)")
        AlbumsCLI.expectClearFailure(redone, "redo after the push")
        #expect(redone.error == "albums: nothing to redo\n", "\(redone)")
        #expect(try await Self.titles(cli).suffix(1) == ["New"])
    }

    /// An add "at the end" waiting for a delete appends at the end as committed then, and prints
    /// the position it used.
    @Test func anAddWaitingForADeleteAppendsAtTheCommittedEnd() async throws {
        let folder = try ChildProcess.makeFolder("add-vs-delete")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        #expect(try await cli("list").status == 0)
        let gate = try Gate(in: folder)
        async let deleting = cli.run(["delete", "1"], environment: gate.environment)
        try await gate.waitUntilSomeoneWaits()
        async let adding = cli("add", "--title", "Last", "--artist", "A")
        try await Task.sleep(for: Self.secondProcessHeadStart)
        gate.open()
        let (deleted, added) = try await (deleting, adding)
        #expect(deleted.status == 0 && deleted.output == "Deleted “Best of Bowie” (position 1)\n", "\(deleted)")
        #expect(added.status == 0 && added.output == "Added “Last” (position 5)\n", "\(added)")
        #expect(try await Self.titles(cli).last == "Last")
    }

    /// Several processes doing mixed changes, undos and redos at once, from a seeded generator.
    ///
    /// After the run: every acknowledged change is one step (the index is the acknowledged pushes
    /// minus undos plus redos), every step in the history is an acknowledged change, positions are
    /// contiguous, undoing everything gives the five default albums, and redoing everything gives
    /// back the same export. `CROSS_PROCESS_SEED` replays a seed; `RELIABILITY_LONG=1` runs longer.
    @Test func randomMixedOperationsFromSeveralProcessesKeepTheHistoryExact() async throws {
        let seed =
            ProcessInfo.processInfo.environment["CROSS_PROCESS_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0012
        print("CrossProcessUndoTests: seed \(seed) (replay with CROSS_PROCESS_SEED=\(seed))")
        let folder = try ChildProcess.makeFolder("cross-process-random")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        #expect(try await cli("list").status == 0)
        for size in 1...3 {
            try AlbumsCLI.importFile(count: size, prefix: "Batch \(size)")
                .write(to: folder.appendingPathComponent("import-\(size).json"))
        }
        let processes = 3
        let operations =
            ConcurrentWritersTests.isLong ? 80 : DamagedLibraryTests.isSanitized ? 8 : 20
        var generator = SplitMix64(seed: seed)
        // Each process's script, drawn up front so the seed alone decides it.
        let scripts: [[[String]]] = (0..<processes).map { process in
            (0..<operations).map { number in
                let position = String(1 + Int(generator.next() % 7))
                switch generator.next() % 10 {
                case 0, 1: return ["add", "--title", "p\(process)-\(number)", "--artist", "P\(process)"]
                case 2: return ["edit", position, "--genre", "g\(process)-\(number)"]
                case 3: return ["move", position, String(1 + Int(generator.next() % 7))]
                case 4: return ["delete", position]
                case 5:
                    return ["import", folder.appendingPathComponent("import-\(1 + generator.next() % 3).json").path]
                case 6, 7: return ["undo"]
                default: return ["redo"]
                }
            }
        }
        let results = await withTaskGroup(of: [([String], ChildProcess.Result?)].self) { group in
            for script in scripts {
                group.addTask {
                    var results: [([String], ChildProcess.Result?)] = []
                    for arguments in script { results.append((arguments, try? await cli.run(arguments))) }
                    return results
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let context = "seed \(seed)"
        var pushes = 0
        var undos = 0
        var redos = 0
        var acknowledgedTexts: [String] = []
        for (arguments, result) in results {
            guard let result else {
                Issue.record("\(context): \(arguments) did not run")
                continue
            }
            AlbumsCLI.expectNoCrash(result, "\(context): \(arguments)")
            guard result.status == 0 else {
                // Refusals the random script provokes (a position past the end, nothing to undo or
                // redo) must be clear, and must have changed nothing (checked by the index below).
                AlbumsCLI.expectClearFailure(result, "\(context): \(arguments)")
                continue
            }
            switch arguments[0] {
            case "undo":
                undos += 1
                #expect(result.output.hasPrefix("Undid "), "\(context): \(result)")
            case "redo":
                redos += 1
                #expect(result.output.hasPrefix("Redid "), "\(context): \(result)")
            default:
                pushes += 1
                if arguments[0] == "add" { acknowledgedTexts.append("Add “\(arguments[2])”") }
            }
        }
        let history = try await Self.history(cli)
        #expect(
            history.current == pushes - undos + redos,
            "\(context): \(pushes) pushes, \(undos) undos, \(redos) redos, \(history)")
        // Every step is an acknowledged change: adds are named by their unique titles.
        for step in history.steps where step.text.hasPrefix("Add “p") {
            #expect(acknowledgedTexts.contains(step.text), "\(context): \(step.text) was never acknowledged")
        }
        let list = try await cli("--json", "list")
        struct Listed: Decodable { var position: Int }
        let positions = try JSONDecoder().decode([Listed].self, from: Data(list.output.utf8)).map(\.position)
        #expect(positions == Array(0..<positions.count).map { $0 + 1 }, "\(context): positions \(positions)")
        let before = try await cli("export").output
        if history.current > 0 {
            let undone = try await cli("undo", String(history.current))
            #expect(undone.status == 0, "\(context): \(undone)")
        }
        #expect(try await Self.titles(cli) == Self.defaultTitles, "\(context)")
        let total = try await Self.history(cli).steps.count
        if total > 0 {
            let redone = try await cli("redo", String(total))
            #expect(redone.status == 0, "\(context): \(redone)")
            if history.current < total {
                // Redoing everything went past where the run ended: undo back to it.
                #expect(try await cli("undo", String(total - history.current)).status == 0, "\(context)")
            }
        }
        #expect(try await cli("export").output == before, "\(context): redo of everything changed the library")
    }

    static let defaultTitles = [
        "Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
    ]
}
