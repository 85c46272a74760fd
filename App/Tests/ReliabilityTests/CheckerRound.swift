import Foundation
import TestSupport

/// One round of the history checker: a fresh library, several `albums` processes running their
/// scripts on it at once, each run recorded with what it printed and when it started and ended.
struct CheckerRound {
    /// One `albums` run.
    struct Run: Sendable {
        var process: Int
        var number: Int
        var operation: CheckerOperation
        var result: ChildProcess.Result
        /// When the run started and ended, from the start of the round: the process ran inside.
        var start: Duration
        var end: Duration
        /// Where its commit fell in the order the commit gate saw (``CommitGateSequencer``), in a
        /// round ordered by the gate; `nil` otherwise or when it committed nothing.
        var gateOrder: Int?

        var label: String { "P\(process)#\(number) `\(operation)`" }
        /// The author the process records its steps as (`--author`).
        var author: String { "p\(process)" }
    }

    /// `albums --json history`.
    struct History: Decodable, Sendable {
        struct Step: Decodable, Sendable {
            var text: String
            var done: Bool
        }
        var current: Int
        var count: Int
        /// Missing from the output of an `albums` older than the revision.
        var revision: Int?
        var steps: [Step]
    }

    /// `albums --json history --tree`.
    struct Tree: Decodable, Sendable {
        struct Step: Decodable, Sendable {
            var id: Int
            var parent: Int
            var text: String
        }
        var current: Int
        var steps: [Step]
    }

    /// What a round ran and observed.
    struct Record: Sendable {
        var seed: UInt64
        var initialAlbums: [LibraryModel.Album]
        var initialRevision: Int
        var runs: [Run]
        var finalAlbums: [LibraryModel.Album]
        var finalHistory: History
        var finalTree: Tree
        /// `list --json` ids, in the order of the positions it printed (which must be 1, 2, …).
        var listedIDs: [UUID]
        var listedPositions: [Int]
        /// What the gate saw that breaks its premise (two processes inside a commit at once).
        var gateAnomalies: [String]
    }

    struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }

    let albums: String
    let seed: UInt64
    let processes: Int
    let operationsPerProcess: Int
    let orderedByGate: Bool
    /// A PostgreSQL server's URL: the round's library is a fresh schema there instead of a file.
    var serverURL: String?
    /// A hang, not a slow machine: generous, since the machine may be busy.
    var timeout: TimeInterval = 120

    /// Runs the round in a fresh folder (removed afterwards), on a fresh library: a file in it,
    /// or a schema of its own on the server (dropped afterwards).
    func run() async throws -> Record {
        let folder = try ChildProcess.makeFolder("history-checker")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try serverURL.map { try PostgreSQLTestSchema(base: $0) }
        defer { server?.drop() }
        let database = server?.url ?? folder.appendingPathComponent("library.sqlite").path
        func albums(_ arguments: String...) async throws -> String {
            let result = try await ChildProcess.run(self.albums, ["--db", database] + arguments, timeout: timeout)
            guard result.status == 0 else { throw SetupFailure(description: "\(arguments): \(result)") }
            return result.output
        }
        let decoder = JSONDecoder()
        // `init` makes the library (a reading command never does); an older albums, which has no
        // `init`, made it on its first `list`.
        if (try? await albums("init")) == nil { _ = try await albums("list") }
        let initial = try decoder.decode([LibraryModel.Album].self, from: Data(try await albums("export").utf8))
        let initialHistory = try decoder.decode(History.self, from: Data(try await albums("--json", "history").utf8))

        var workload = CheckerWorkload(seed: seed, folder: folder, initial: initial)
        workload.onServer = server != nil
        let scripts = workload.scripts(processes: processes, operations: operationsPerProcess)
        let encoder = JSONEncoder()
        for operation in scripts.joined() {
            if let file = operation.importFile {
                try encoder.encode(file.albums).write(to: URL(fileURLWithPath: file.path))
            }
            if let file = operation.coverFile {
                try file.bytes.write(to: URL(fileURLWithPath: file.path))
            }
        }

        let sequencer = orderedByGate ? CommitGateSequencer() : nil
        let watcher = sequencer.map { sequencer in Task { await sequencer.watch() } }
        let origin = ContinuousClock.now
        let runs = await withTaskGroup(of: [Run].self) { group in
            for (process, script) in scripts.enumerated() {
                group.addTask {
                    var runs: [Run] = []
                    for (number, operation) in script.enumerated() {
                        let key = CommitGateSequencer.Key(process: process, number: number)
                        var environment: [String: String] = [:]
                        if let sequencer {
                            environment["ALBUMS_TEST_COMMIT_GATE"] = sequencer.open(key, in: folder).path
                        }
                        let start = ContinuousClock.now - origin
                        let result: ChildProcess.Result
                        do {
                            result = try await ChildProcess.run(
                                self.albums,
                                ["--db", database, "--json", "--author", "p\(process)"] + operation.arguments,
                                environment: environment, timeout: timeout)
                        } catch {
                            result = ChildProcess.Result(
                                status: -1, wasSignaled: false, timedOut: false, output: "",
                                error: "could not run: \(error)")
                        }
                        let end = ContinuousClock.now - origin
                        runs.append(
                            Run(
                                process: process, number: number, operation: operation, result: result, start: start,
                                end: end, gateOrder: sequencer?.close(key)))
                    }
                    return runs
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        watcher?.cancel()

        var finalAlbums = try decoder.decode([LibraryModel.Album].self, from: Data(try await albums("export").utf8))
        let finalHistory = try decoder.decode(History.self, from: Data(try await albums("--json", "history").utf8))
        let finalTree = try decoder.decode(
            Tree.self, from: Data(try await albums("--json", "history", "--tree").utf8))
        struct Listed: Decodable {
            struct Cover: Decodable { var hash: String }
            var position: Int
            var id: UUID
            var storedCover: Cover?
        }
        let listed = try decoder.decode([Listed].self, from: Data(try await albums("--json", "list").utf8))
        // The export carries no image: each album's stored cover is the one `list --json` names.
        let covers = Dictionary(listed.map { ($0.id, $0.storedCover?.hash) }) { first, _ in first }
        for index in finalAlbums.indices { finalAlbums[index].storedCover = covers[finalAlbums[index].id] ?? nil }
        return Record(
            seed: seed, initialAlbums: initial, initialRevision: initialHistory.revision ?? 0, runs: runs,
            finalAlbums: finalAlbums, finalHistory: finalHistory, finalTree: finalTree, listedIDs: listed.map(\.id),
            listedPositions: listed.map(\.position), gateAnomalies: sequencer?.anomalies ?? [])
    }
}
