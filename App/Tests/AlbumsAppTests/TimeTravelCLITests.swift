import Foundation
import Testing

/// `albums undo --to` and `albums history --tree`: undo five steps, make a new change, and every one
/// of the five is still reachable, by step and by time, across processes.
@Suite struct TimeTravelCLITests {
    private func makeLibrary() throws -> (folder: URL, cli: AlbumsProcess) {
        let folder = try AlbumsProcess.makeFolder()
        return (folder, AlbumsProcess(database: folder.appendingPathComponent("library.sqlite").path))
    }

    @Test func aNewChangeAfterUndoKeepsTheUndoneStepsReachable() async throws {
        let (folder, cli) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        for title in ["One", "Two", "Three", "Four", "Five"] {
            #expect(try await cli("add", "--title", title, "--artist", "A").status == 0)
        }
        #expect(try await cli("undo", "5").status == 0)
        #expect(try await cli("add", "--title", "Other", "--artist", "B").status == 0)
        #expect(try await cli("redo").status == 1)  // the new change is a leaf

        let tree = try await cli("history", "--tree")
        #expect(tree.status == 0)
        #expect(tree.output.contains("> 6  ") && tree.output.contains("Add “Other”"), "\(tree)")
        #expect(tree.output.contains("5  ") && tree.output.contains("Add “Five”"), "\(tree)")

        let jump = try await cli("undo", "--to", "4")
        #expect(jump.status == 0, "\(jump)")
        #expect(
            jump.output
                == "Undid Add “Other”\nRedid Add “One”\nRedid Add “Two”\nRedid Add “Three”\nRedid Add “Four”\nNow at step 4\n",
            "\(jump)")
        #expect(try await cli("list").output.contains("Four"))
        // Redo follows the branch visited last: Five, then nothing.
        #expect(try await cli("redo").output == "Redid Add “Five”\n")
        #expect(try await cli("undo", "--to", "6").status == 0)
        #expect(!(try await cli("list").output.contains("One")))

        // By time: before every step, then after all of them (the newest step, Other, is current).
        let start = try await cli("undo", "--to", "2000-01-01T00:00Z")
        #expect(start.status == 0 && start.output.hasSuffix("Now at step 0\n"), "\(start)")
        let latest = try await cli("undo", "--to", "2999-01-01T00:00Z")
        #expect(latest.status == 0 && latest.output == "Redid Add “Other”\nNow at step 6\n", "\(latest)")
        let again = try await cli("undo", "--to", "2999-01-01T00:00Z")
        #expect(again.status == 1 && again.error.contains("already at step 6: nothing to undo or redo"), "\(again)")
    }

    /// `history` numbers the path's steps as the tree does, so a number read there is the step
    /// `undo --to` reaches (after a change that parked a branch, positions and numbers differ).
    @Test func historyShowsTheStepNumbersThatUndoToTakes() async throws {
        let (folder, cli) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        for title in ["One", "Two", "Three"] {
            #expect(try await cli("add", "--title", title, "--artist", "A").status == 0)
        }
        #expect(try await cli("undo", "2").status == 0)
        #expect(try await cli("add", "--title", "Other", "--artist", "B").status == 0)
        let history = try await cli("history")
        let lines = history.output.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 2) }
        #expect(lines.count == 3, "\(history)")
        #expect(lines.last?.first == ">" && lines.last?.dropFirst().first == "4", "\(history)")
        #expect(history.output.hasSuffix("Add “Other”\n"), "\(history)")
        let json = try await cli("--json", "history")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let steps = object?["steps"] as? [[String: Any]] ?? []
        #expect(steps.compactMap { $0["index"] as? Int } == [1, 2], "\(json)")
        #expect(steps.compactMap { $0["step"] as? Int } == [1, 4], "\(json)")
        #expect(try await cli("undo", "--to", "1").status == 0)
        #expect(try await cli("undo", "--to", "4").output == "Redid Add “Other”\nNow at step 4\n")
    }

    @Test func theTreeAsJSONGivesEachStepsParentAndTime() async throws {
        let (folder, cli) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await cli("add", "--title", "One", "--artist", "A").status == 0)
        #expect(try await cli("add", "--title", "Two", "--artist", "A").status == 0)
        #expect(try await cli("undo").status == 0)
        #expect(try await cli("add", "--title", "Three", "--artist", "A").status == 0)
        struct Tree: Decodable {
            struct Step: Decodable {
                var id: Int
                var parent: Int
                var text: String
                var time: Date?
                var onPath: Bool
            }
            var current: Int
            var steps: [Step]
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let tree = try decoder.decode(Tree.self, from: Data(try await cli("--json", "history", "--tree").output.utf8))
        #expect(tree.current == 3)
        #expect(tree.steps.map(\.id) == [1, 2, 3] && tree.steps.map(\.parent) == [0, 1, 1])
        #expect(tree.steps.map(\.onPath) == [true, false, true])
        #expect(tree.steps.allSatisfy { $0.time != nil })
    }

    @Test func badTargetsAreRefusedChangingNothing() async throws {
        let (folder, cli) = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await cli("add", "--title", "One", "--artist", "A").status == 0)
        let before = try await cli("export").output
        for (arguments, status, message) in [
            (["undo", "--to", "9"], Int32(1), "there is no step 9 in the history"),
            (["undo", "--to", "yesterday"], 2, "is not a step number, an age"),
            (["undo", "--to", "-3"], 2, "--to -3 is not a step (steps are numbered from 0, the start)"),
            (["undo", "2", "--to", "1"], 2, "give COUNT or --to, not both"),
            (["undo", "--to", "1"], 1, "already at step 1"),
            (["history", "--tree", "-n", "2"], 2, "--tree shows the whole tree"),
        ] {
            let result = try await cli.run(["--db", cli.database] + arguments)
            #expect(result.status == status && result.error.contains(message), "\(arguments): \(result)")
        }
        #expect(try await cli("export").output == before)
    }
}
