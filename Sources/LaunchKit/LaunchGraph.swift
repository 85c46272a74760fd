/// The validated dependency graph of a launch: indices in declaration order.
///
/// Building one checks, in this order, duplicate identifiers, missing dependencies, phase inversions
/// and cycles; nothing runs when a check fails.
struct LaunchGraph: Sendable {
    /// One command and its place in the graph. A class: the scheduler hands nodes to child tasks,
    /// and one retain is cheaper than copying the command's existential and arrays.
    final class Node: Sendable {
        let command: any AppCommand
        let id: LaunchID
        let dependencies: [Int]
        let phase: LaunchPhase
        let isolation: LaunchIsolation
        let isRequired: Bool
        let timeout: Duration?
        /// The shutdown step, when the command owns one.
        let tearDown: TearDownStep?
        /// Whether the command is a long-running service (a flag, not the cast existential: a
        /// smaller node, and the cast happens only when a service starts).
        let isService: Bool

        /// The command as a service, when it is one.
        var service: (any ServiceCommand)? { isService ? command as? any ServiceCommand : nil }

        init(
            command: any AppCommand,
            id: LaunchID,
            dependencies: [Int],
            phase: LaunchPhase,
            isolation: LaunchIsolation,
            isRequired: Bool,
            timeout: Duration?,
            tearDown: TearDownStep?,
            isService: Bool
        ) {
            self.command = command
            self.id = id
            self.dependencies = dependencies
            self.phase = phase
            self.isolation = isolation
            self.isRequired = isRequired
            self.timeout = timeout
            self.tearDown = tearDown
            self.isService = isService
        }
    }

    /// A command's shutdown step.
    struct TearDownStep: Sendable {
        let command: any TearDownCommand
    }

    let nodes: [Node]
    let dependents: [[Int]]
    let indexByID: [LaunchID: Int]
    /// Kahn's order, ties broken by declaration order.
    let topologicalOrder: [Int]

    var count: Int { nodes.count }

    /// The graph of no command: what the state machine of an invalid launch holds (nothing runs).
    static var empty: LaunchGraph { LaunchGraph() }

    private init() {
        nodes = []
        dependents = []
        indexByID = [:]
        topologicalOrder = []
    }

    init(commands: [any AppCommand]) throws(LaunchError) {
        var indexByID: [LaunchID: Int] = [:]
        var duplicates: [LaunchID] = []
        for (index, command) in commands.enumerated() {
            let id = command.id
            if indexByID[id] == nil {
                indexByID[id] = index
            } else if !duplicates.contains(id) {
                duplicates.append(id)
            }
        }
        if !duplicates.isEmpty {
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            throw LaunchError(
                .duplicateIdentifier, "more than one command has the identifier \(names)", commands: duplicates)
        }

        var nodes: [Node] = []
        nodes.reserveCapacity(commands.count)
        var missing: [LaunchID] = []
        var missingDetails: [String] = []
        for command in commands {
            var dependencies: [Int] = []
            for dependency in command.dependencies {
                if let index = indexByID[dependency] {
                    if !dependencies.contains(index) { dependencies.append(index) }
                } else {
                    if !missing.contains(dependency) { missing.append(dependency) }
                    missingDetails.append("'\(command.id)' depends on '\(dependency)'")
                }
            }
            // Closure commands, the common case, skip the protocol casts.
            let launchCommand = command as? LaunchCommand
            let tearDown: TearDownStep? =
                if let launchCommand {
                    launchCommand.hasTearDown ? TearDownStep(command: launchCommand) : nil
                } else if let owner = command as? any TearDownCommand {
                    TearDownStep(command: owner)
                } else {
                    nil
                }
            let isService = launchCommand == nil && command is any ServiceCommand
            nodes.append(
                Node(
                    command: command,
                    id: command.id,
                    dependencies: dependencies,
                    phase: command.phase,
                    isolation: command.isolation,
                    isRequired: command.isRequired,
                    timeout: command.timeout,
                    tearDown: tearDown,
                    isService: isService
                ))
        }
        if !missing.isEmpty {
            throw LaunchError(
                .missingDependency,
                "missing dependency: " + missingDetails.joined(separator: "; ") + ", which no command provides",
                commands: missing)
        }

        for node in nodes where node.phase == .beforeReady {
            if let deferred = node.dependencies.first(where: { nodes[$0].phase == .deferred }) {
                throw LaunchError(
                    .phaseInversion,
                    "'\(node.id)' runs before readiness but depends on the deferred command '\(nodes[deferred].id)'",
                    commands: [node.id, nodes[deferred].id])
            }
        }

        var dependents = Array(repeating: [Int](), count: nodes.count)
        for (index, node) in nodes.enumerated() {
            for dependency in node.dependencies { dependents[dependency].append(index) }
        }

        // Kahn's algorithm with a min-heap: among ready nodes, the earliest declared goes first.
        var remaining = nodes.map { $0.dependencies.count }
        var ready = IndexHeap()
        for index in nodes.indices where remaining[index] == 0 { ready.insert(index) }
        var order: [Int] = []
        order.reserveCapacity(nodes.count)
        while let index = ready.popMin() {
            order.append(index)
            for dependent in dependents[index] {
                remaining[dependent] -= 1
                if remaining[dependent] == 0 { ready.insert(dependent) }
            }
        }
        if order.count < nodes.count {
            let cycle = Self.cycle(nodes: nodes, remaining: remaining)
            let ids = cycle.map { nodes[$0].id }
            let path = (ids + [ids[0]]).map { "'\($0)'" }.joined(separator: " → ")
            throw LaunchError(
                .cycle, "the dependencies form a cycle: \(path) (each depends on the next)", commands: ids)
        }

        self.nodes = nodes
        self.dependents = dependents
        self.indexByID = indexByID
        self.topologicalOrder = order
    }

    /// Finds one cycle among the nodes Kahn's algorithm could not order.
    ///
    /// Each such node has an unordered dependency, so following the first one from the earliest
    /// declared node must revisit a node: the nodes from that revisit on form the cycle.
    private static func cycle(nodes: [Node], remaining: [Int]) -> [Int] {
        guard var current = remaining.firstIndex(where: { $0 > 0 }) else { return [] }
        var visitedAt: [Int: Int] = [:]
        var path: [Int] = []
        while visitedAt[current] == nil {
            visitedAt[current] = path.count
            path.append(current)
            guard let next = nodes[current].dependencies.first(where: { remaining[$0] > 0 }) else { return path }
            current = next
        }
        return Array(path[visitedAt[current]!...])
    }

    /// Every command a node depends on, directly or not, in declaration order.
    func transitiveDependencies(of index: Int) -> [Int] {
        var seen = Set<Int>()
        var stack = nodes[index].dependencies
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack.append(contentsOf: nodes[next].dependencies) }
        }
        return seen.sorted()
    }
}
