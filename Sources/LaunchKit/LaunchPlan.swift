/// The waves a launch would run, computed without running anything (see ``AppInvoker/plan()``).
///
/// Wave *n* holds the commands whose longest chain of dependencies has *n − 1* links: with enough
/// width, each wave starts when the previous one has finished. Deferred commands form waves of their
/// own, after readiness. Within a wave commands are in declaration order. The invoker's actual
/// schedule starts each command as soon as its own dependencies finish, so it never waits for a
/// whole wave; ``AppInvoker/maxConcurrency`` may spread a wide wave out.
public struct LaunchPlan: Hashable, Sendable, CustomStringConvertible {
    /// The before-ready waves, in order.
    public let beforeReady: [[LaunchID]]
    /// The deferred waves, in order, after readiness.
    public let deferred: [[LaunchID]]

    init(graph: LaunchGraph) {
        var level = Array(repeating: 0, count: graph.count)
        for index in graph.topologicalOrder {
            let node = graph.nodes[index]
            var deepest = -1
            for dependency in node.dependencies where graph.nodes[dependency].phase == node.phase {
                deepest = max(deepest, level[dependency])
            }
            level[index] = deepest + 1
        }
        func waves(_ phase: LaunchPhase) -> [[LaunchID]] {
            var waves: [[LaunchID]] = []
            for (index, node) in graph.nodes.enumerated() where node.phase == phase {
                while waves.count <= level[index] { waves.append([]) }
                waves[level[index]].append(node.id)
            }
            return waves
        }
        self.beforeReady = waves(.beforeReady)
        self.deferred = waves(.deferred)
    }

    /// One line per wave, with a readiness marker between the phases:
    ///
    /// ```
    /// wave 1: config, logging
    /// wave 2: database
    /// -- ready --
    /// wave 3 (deferred): sync
    /// ```
    public var description: String {
        var lines: [String] = []
        for wave in beforeReady {
            lines.append("wave \(lines.count + 1): " + wave.map(\.rawValue).joined(separator: ", "))
        }
        lines.append("-- ready --")
        for wave in deferred {
            lines.append("wave \(lines.count): " + wave.map(\.rawValue).joined(separator: ", ") + " (deferred)")
        }
        return lines.joined(separator: "\n")
    }
}
