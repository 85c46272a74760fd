import Foundation
import Synchronization

/// Test-only ordering of commits for an `albums` that prints no revision (the code before the
/// history had one): each run gets a commit gate of its own (`ALBUMS_TEST_COMMIT_GATE`, see
/// `TestCommitGate`), and this lets the gated commits through one at a time, numbering them.
///
/// A process at its gate is inside its commit, holding the library's write lock, so no other
/// process can be at its gate then: the order in which the gates are seen is the order of the
/// commits. Only a process's first commit is numbered (the runs of the checker commit once); two
/// processes seen at their gates at once would break the premise and are reported.
final class CommitGateSequencer: Sendable {
    struct Key: Hashable, Sendable {
        var process: Int
        var number: Int
    }

    private struct State {
        var open: [Key: URL] = [:]
        var order: [Key: Int] = [:]
        var anomalies: [String] = []
    }

    private let state = Mutex(State())

    /// What broke the premise, if anything.
    var anomalies: [String] { state.withLock { $0.anomalies } }

    /// Makes the gate folder of one run, to pass in its environment.
    func open(_ key: Key, in parent: URL) -> URL {
        let folder = parent.appendingPathComponent("gate-\(key.process)-\(key.number)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        state.withLock { $0.open[key] = folder }
        return folder
    }

    /// Forgets a finished run's gate, and returns where its commit fell (`nil`: it committed nothing).
    func close(_ key: Key) -> Int? {
        state.withLock { state in
            state.open[key] = nil
            return state.order[key]
        }
    }

    /// Lets gated commits through, one at a time and numbered, until the task is cancelled.
    func watch() async {
        while !Task.isCancelled {
            let open = state.withLock { state in state.open.filter { state.order[$0.key] == nil } }
            let waiting = open.filter { _, folder in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                return names.contains { $0.hasPrefix("waiting-") }
            }
            if waiting.count > 1 {
                state.withLock {
                    $0.anomalies.append("\(waiting.count) processes were inside a commit at once: \(waiting.keys)")
                }
            }
            for (key, folder) in waiting.sorted(by: {
                ($0.key.process, $0.key.number) < ($1.key.process, $1.key.number)
            }) {
                state.withLock { $0.order[key] = $0.order.count }
                _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("go").path, contents: nil)
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
