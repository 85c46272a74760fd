public import CommandKit

/// Model-based randomized test of a branching ``UndoHistory`` (``UndoHistory/keepsBranches``):
/// random pushes, undos, redos and jumps to any node (some with a command that throws part of the
/// way) run on the history and on a reference tree (parent links and a "last visited child" per
/// node, vim's rule), compared after every step: the document, the current node, the nodes and
/// their parents, and what undo and redo would do. A failure prints the seed and the operations.
public enum TreeModelTest: Sendable {
    /// The base seed; sequence `i` runs with `baseSeed + i`.
    public static let baseSeed: UInt64 = 0x7EE5_0F_71AE

    /// The reference tree.
    struct Model {
        var parent: [Int: Int] = [:]
        /// The child a redo from each node follows.
        var lastChild: [Int: Int] = [:]
        var current = 0
        var nextID = 1

        func path(to node: Int) -> [Int] {
            var nodes: [Int] = []
            var node = node
            while node != 0 {
                nodes.append(node)
                node = parent[node]!
            }
            return nodes.reversed()
        }

        mutating func push() -> Int {
            let id = nextID
            nextID += 1
            parent[id] = current
            lastChild[current] = id
            current = id
            return id
        }

        /// The steps a jump from the current node to `target` undoes, and the ones it redoes.
        func route(to target: Int) -> (undone: [Int], redone: [Int]) {
            let from = path(to: current)
            let to = path(to: target)
            var shared = 0
            while shared < from.count, shared < to.count, from[shared] == to[shared] { shared += 1 }
            return (Array(from[shared...].reversed()), Array(to[shared...]))
        }

        mutating func visit(_ nodes: [Int]) {
            for node in nodes { lastChild[parent[node]!] = node }
        }
    }

    /// A history under test and what the test does to it.
    public struct Subject<History: UndoHistory> {
        /// A new, empty, branching history.
        public var history: History
        /// Pushes a command that appends its ID to the document (undo removes it).
        public var push: (Int) throws -> Void
        /// The document: the IDs applied, in order.
        public var document: () throws -> [Int]
        /// `k > 0`: the k-th command call from now throws; `0`: none does.
        public var failAfter: (Int) -> Void

        /// Creates a subject.
        public init(
            history: History, push: @escaping (Int) throws -> Void, document: @escaping () throws -> [Int],
            failAfter: @escaping (Int) -> Void
        ) {
            self.history = history
            self.push = push
            self.document = document
            self.failAfter = failAfter
        }
    }

    /// Runs `sequences` random sequences on histories taking probe commands (``ProbeCommand``).
    public static func run<History: UndoHistory>(
        sequences: Int,
        exactRollback: Bool,
        makeHistory: @escaping () -> History,
        push: @escaping (History, any UndoCommand) throws -> Void
    ) -> (failure: String?, checkedSteps: Int) {
        run(sequences: sequences, exactRollback: exactRollback) {
            let document = ProbeDocument()
            let history = makeHistory()
            return Subject(
                history: history, push: { try push(history, ProbeCommand(document: document, id: $0)) },
                document: { document.applied }, failAfter: { document.failCountdown = $0 })
        }
    }

    /// Runs `sequences` random sequences.
    ///
    /// - Parameters:
    ///   - exactRollback: Whether a failed jump restores the history exactly (a durable history rolls
    ///     its transaction back). An ``UndoStack`` runs the steps back instead, which may change
    ///     which branch a later redo follows below the fork: its sequence ends after the comparison.
    ///   - makeSubject: A new, empty, branching history and its document.
    /// - Returns: The first mismatch (with its seed), and how many steps were compared.
    public static func run<History: UndoHistory>(
        sequences: Int,
        exactRollback: Bool,
        makeSubject: () throws -> Subject<History>
    ) -> (failure: String?, checkedSteps: Int) {
        print("TreeModelTest seed=\(baseSeed) sequences=\(sequences) history=\(History.self)")
        var checked = 0
        for sequence in 0..<sequences {
            let seed = baseSeed &+ UInt64(sequence)
            var rng = UndoModelRandom(seed: seed)
            let subject: Subject<History>
            do { subject = try makeSubject() } catch { return ("making the history failed: \(error)", checked) }
            let history = subject.history
            var model = Model()
            var log: [String] = []
            var stopAfterThisStep = false
            func fail(_ what: String) -> String {
                "seed=\(seed) (sequence \(sequence)) after \(log.joined(separator: " ")): \(what)"
            }
            for _ in 0..<(Int(rng.next() % 40) + 1) {
                let roll = rng.next() % 100
                do {
                    if roll < 40 {
                        let id = model.push()
                        log.append("push\(id)")
                        try subject.push(id)
                    } else if roll < 60 {
                        log.append("undo")
                        try history.undo()
                        if model.current != 0 { model.current = model.parent[model.current]! }
                    } else if roll < 75 {
                        log.append("redo")
                        try history.redo()
                        if let child = model.lastChild[model.current] { model.current = child }
                    } else {
                        let nodes = [0] + model.parent.keys.sorted()
                        let target = nodes[Int(rng.next() % UInt64(nodes.count))]
                        let route = model.route(to: target)
                        let calls = route.undone.count + route.redone.count
                        let failAt = roll >= 90 && calls > 0 ? Int(rng.next() % UInt64(calls)) + 1 : 0
                        log.append(failAt > 0 ? "jump\(target)!\(failAt)" : "jump\(target)")
                        subject.failAfter(failAt)
                        let expected = history.currentNode
                        do {
                            let jump = try history.jump(to: HistoryNode.ID(target), expecting: expected)
                            if failAt > 0 { return (fail("the jump did not fail"), checked) }
                            if jump.undone.map(\.id.rawValue) != route.undone
                                || jump.redone.map(\.id.rawValue) != route.redone
                            {
                                return (fail("jump \(jump) is not the route \(route)"), checked)
                            }
                            model.visit(route.redone)
                            model.current = target
                        } catch let error as HistoryJumpError {
                            guard failAt > 0 else { return (fail("unexpected \(error)"), checked) }
                            let failed =
                                failAt <= route.undone.count
                                ? route.undone[failAt - 1] : route.redone[failAt - route.undone.count - 1]
                            if error.step.rawValue != failed { return (fail("\(error) names the wrong step"), checked) }
                            // A stack runs the steps back, which re-parks the branch it was heading to:
                            // which child a later redo follows below the fork is then the stack's own.
                            // Compare this state, then end the sequence.
                            if !exactRollback, failAt > route.undone.count { stopAfterThisStep = true }
                        }
                        subject.failAfter(0)
                    }
                } catch {
                    return (fail("unexpected \(error)"), checked)
                }
                if let mismatch = compare(history, (try? subject.document()) ?? [-1], model) {
                    return (fail(mismatch), checked)
                }
                checked += 1
                if stopAfterThisStep { break }
            }
        }
        return (nil, checked)
    }

    /// The first difference between the history and the model, or `nil`.
    static func compare<History: UndoHistory>(_ history: History, _ document: [Int], _ model: Model) -> String? {
        let path = model.path(to: model.current)
        if document != path { return "document \(document), model path \(path)" }
        if history.currentNode.rawValue != model.current {
            return "current \(history.currentNode), model \(model.current)"
        }
        if history.canUndo != (model.current != 0) { return "canUndo \(history.canUndo)" }
        let redo = model.lastChild[model.current]
        if history.canRedo != (redo != nil) {
            return "canRedo \(history.canRedo), model redo \(String(describing: redo))"
        }
        if let redo, history.redoText != "a\(redo)" { return "redoText \(history.redoText), model a\(redo)" }
        guard let nodes = try? history.nodes() else { return "nodes() threw" }
        let parents = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id.rawValue, $0.parent.rawValue) })
        if parents != model.parent {
            return "tree \(parents.sorted { $0.key < $1.key }), model \(model.parent.sorted { $0.key < $1.key })"
        }
        return nil
    }
}

extension ProbeCommand {
    /// A significant command applying one ID, never merged, never obsolete.
    init(document: ProbeDocument, id: Int) {
        self.init(document: document, ids: [id], key: nil, significant: true, rule: .never, cancelAt: nil)
    }
}

@available(*, unavailable)
extension TreeModelTest.Subject: Sendable {}
