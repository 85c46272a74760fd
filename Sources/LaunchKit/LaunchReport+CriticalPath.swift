extension LaunchReport {
    /// The chain of commands with the longest summed run time, respecting dependencies and the
    /// readiness barrier in front of deferred commands.
    ///
    /// Ties go to the earliest declared command, so the path is reproducible.
    ///
    /// - Complexity: O(n + e) for n commands and e dependency links.
    static func criticalPath(graph: LaunchGraph, entries: [Entry]) -> ([LaunchID], Duration) {
        guard !entries.isEmpty else { return ([], .zero) }
        let weight = entries.map { $0.runTime ?? .zero }
        var longest = Array(repeating: Duration.zero, count: graph.count)
        var previous = Array(repeating: Int?.none, count: graph.count)

        func relax(_ index: Int, gate: Int?) {
            var best: Int? = gate
            for dependency in graph.nodes[index].dependencies {
                if let current = best {
                    if longest[dependency] > longest[current]
                        || (longest[dependency] == longest[current] && dependency < current)
                    {
                        best = dependency
                    }
                } else {
                    best = dependency
                }
            }
            previous[index] = best
            longest[index] = weight[index] + (best.map { longest[$0] } ?? .zero)
        }

        func argmax(_ indices: [Int]) -> Int? {
            var best: Int?
            for index in indices where best == nil || longest[index] > longest[best!] { best = index }
            return best
        }

        let order = graph.topologicalOrder
        for index in order where graph.nodes[index].phase == .beforeReady { relax(index, gate: nil) }
        let gate = argmax(graph.nodes.indices.filter { graph.nodes[$0].phase == .beforeReady })
        for index in order where graph.nodes[index].phase == .deferred { relax(index, gate: gate) }

        guard var current = argmax(Array(graph.nodes.indices)) else { return ([], .zero) }
        let total = longest[current]
        var path: [LaunchID] = []
        while true {
            if entries[current].outcome.didStart { path.append(graph.nodes[current].id) }
            guard let next = previous[current] else { break }
            current = next
        }
        return (path.reversed(), total)
    }
}
