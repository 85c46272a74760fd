public import CommandKit

// Model-based randomized test of any ``UndoHistory`` over the shared engine: random sequences of
// push / undo / redo / steps / jump / merge / macro / clean / limit / obsolete / failure operations
// run on the history and on a deliberately simple reference model (plain arrays, no storage
// protocol, no ring buffer), compared after every step. A failure prints the seed, the step and
// the operations that led there. Public API only: the in-memory stack and a storage written
// outside CommandKit run the same test.

/// UndoModelRandom: a small, seeded PRNG so every sequence can be replayed from its seed.
public struct UndoModelRandom: RandomNumberGenerator, Sendable {
    var state: UInt64
    /// A generator that replays the sequence of `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next number (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What a probe command throws when its document's countdown reaches zero.
public struct ProbeFailure: Error {}

/// The document probe commands edit: the exact sequence of applied command IDs.
public final class ProbeDocument {
    /// The IDs applied, in order.
    public var applied: [Int] = []
    /// `k > 0`: the k-th command call from now throws. `0`: never.
    public var failCountdown = 0
    /// How many undos found another ID on top.
    public var outOfOrder = 0

    /// An empty document that never fails.
    public init() {}

    func tick() throws {
        guard failCountdown > 0 else { return }
        failCountdown -= 1
        if failCountdown == 0 { throw ProbeFailure() }
    }
}

/// When a probe command turns obsolete.
public enum ObsoleteRule: CaseIterable, Sendable {
    case never, onPush, onSecondRedo, onUndo
}

/// The real command: applies its IDs to the document; rules for merging and obsolescence.
public struct ProbeCommand: UndoCommand {
    let document: ProbeDocument
    var ids: [Int]
    let key: Int?
    let significant: Bool
    let rule: ObsoleteRule
    /// A merge that brings the ID count to this number makes the command obsolete.
    let cancelAt: Int?
    var redoCount = 0
    /// Whether the command turned obsolete (see ``ObsoleteRule``).
    public var isObsolete = false

    /// "c" and the first ID.
    public var text: String { "c\(ids[0])" }
    /// "a" and the first ID.
    public var actionText: String { "a\(ids[0])" }
    /// The merge key drawn for it.
    public var mergeID: Int? { key }
    /// Whether it is a step of its own.
    public var isSignificant: Bool { significant }

    /// Applies its IDs (or throws when the document's countdown says so).
    public mutating func redo() throws {
        try document.tick()
        document.applied += ids
        redoCount += 1
        if rule == .onPush && redoCount == 1 || rule == .onSecondRedo && redoCount == 2 { isObsolete = true }
    }

    /// Removes its IDs from the top (counting the ones found out of order).
    public mutating func undo() throws {
        try document.tick()
        for id in ids.reversed() {
            if document.applied.last == id { document.applied.removeLast() } else { document.outOfOrder += 1 }
        }
        if rule == .onUndo { isObsolete = true }
    }

    /// Absorbs `other` unless its first ID is a multiple of 4.
    public mutating func merge(with other: ProbeCommand) -> Bool {
        if other.ids[0] % 4 == 0 { return false }
        ids += other.ids
        if let cancelAt, ids.count == cancelAt { isObsolete = true }
        return true
    }
}

/// The reference model's command: a leaf, or a macro with children.
struct ModelCommand {
    var ids: [Int]
    var key: Int?
    var significant = true
    var rule = ObsoleteRule.never
    var cancelAt: Int?
    var redoCount = 0
    var obsolete = false
    var children: [ModelCommand]?
    var macroText = ""

    var text: String { children == nil ? "c\(ids[0])" : macroText }
    var actionText: String { children == nil ? "a\(ids[0])" : macroText }

    static func macro(_ text: String, _ children: [ModelCommand]) -> ModelCommand {
        ModelCommand(
            ids: [],
            key: nil,
            obsolete: !children.isEmpty && children.allSatisfy(\.obsolete),
            children: children,
            macroText: text
        )
    }
}

/// The reference model: Qt's rules written as directly as possible.
struct ReferenceModel {
    var entries: [ModelCommand] = []
    var index = 0
    var clean: Int? = 0
    var limit = 0
    var macros: [(text: String, children: [ModelCommand])] = []
    var doc: [Int] = []
    var outOfOrder = 0
    var failCountdown = 0

    mutating func tick() throws {
        guard failCountdown > 0 else { return }
        failCountdown -= 1
        if failCountdown == 0 { throw ProbeFailure() }
    }

    mutating func run(_ c: inout ModelCommand, redo: Bool) throws {
        if var children = c.children {
            defer { c.children = children }
            if redo {
                var i = 0
                do {
                    while i < children.count {
                        try run(&children[i], redo: true)
                        i += 1
                    }
                } catch {
                    while i > 0 {
                        i -= 1
                        try run(&children[i], redo: false)
                    }
                    throw error
                }
            } else {
                var i = children.count
                do {
                    while i > 0 {
                        i -= 1
                        try run(&children[i], redo: false)
                    }
                } catch {
                    i += 1
                    while i < children.count {
                        try run(&children[i], redo: true)
                        i += 1
                    }
                    throw error
                }
            }
            c.obsolete = !children.isEmpty && children.allSatisfy(\.obsolete)
            return
        }
        try tick()
        if redo {
            doc += c.ids
            c.redoCount += 1
            if c.rule == .onPush && c.redoCount == 1 || c.rule == .onSecondRedo && c.redoCount == 2 {
                c.obsolete = true
            }
        } else {
            // An obsolete command's effect stays in the document without a history entry, so
            // an undo below it may find other IDs on top: count that, as the probe does.
            for id in c.ids.reversed() {
                if doc.last == id { doc.removeLast() } else { outOfOrder += 1 }
            }
            if c.rule == .onUndo { c.obsolete = true }
        }
    }

    /// The existing command absorbs the incoming one (same rules as `ProbeCommand.merge`).
    func merged(_ top: ModelCommand, _ incoming: ModelCommand) -> ModelCommand? {
        guard top.children == nil, incoming.children == nil, let key = incoming.key, top.key == key,
            incoming.ids[0] % 4 != 0
        else { return nil }
        var result = top
        result.ids += incoming.ids
        if let cancelAt = top.cancelAt, result.ids.count == cancelAt { result.obsolete = true }
        return result
    }

    mutating func trim(_ k: Int) {
        entries.removeFirst(k)
        index -= k
        if let c = clean { clean = c < k ? nil : c - k }
    }

    mutating func truncate() {
        entries.removeSubrange(index...)
        if let c = clean, c > index { clean = nil }
    }

    mutating func push(_ command: ModelCommand) throws {
        var c = command
        if !c.obsolete { try run(&c, redo: true) }
        if !macros.isEmpty {
            let last = macros.count - 1
            if let top = macros[last].children.last, let m = merged(top, c) {
                macros[last].children.removeLast()
                if !m.obsolete { macros[last].children.append(m) }
                return
            }
            if !c.obsolete { macros[last].children.append(c) }
            return
        }
        truncate()
        if index > 0, index != clean, let m = merged(entries[index - 1], c) {
            if m.obsolete {
                entries.remove(at: index - 1)
                index -= 1
            } else {
                entries[index - 1] = m
            }
            return
        }
        if c.obsolete { return }
        entries.append(c)
        index += 1
        if limit > 0, index > limit { trim(index - limit) }
    }

    mutating func remove(_ p: Int) {
        entries.remove(at: p)
        if let c = clean, c > p { clean = nil }
    }

    /// Runs the entry at `p` in place (its changes are kept even when it throws, like the stack's).
    mutating func runEntry(_ p: Int, redo: Bool) throws {
        var entry = entries[p]
        defer { entries[p] = entry }
        try run(&entry, redo: redo)
    }

    mutating func undoEntry(_ p: Int) throws {
        if !entries[p].obsolete { try runEntry(p, redo: false) }
        if entries[p].obsolete { remove(p) }
    }

    mutating func redoEntry(_ p: Int) throws -> Bool {
        if !entries[p].obsolete { try runEntry(p, redo: true) }
        if entries[p].obsolete {
            remove(p)
            return false
        }
        return true
    }

    var stepStart: Int { stepStart(below: index) }

    func stepStart(below end: Int) -> Int {
        var p = end - 1
        while p > 0, !entries[p].significant { p -= 1 }
        return p
    }

    /// Undoes exactly `k` steps or none: counted first; a failure part of the way redoes what was
    /// undone (the stack's all-or-nothing rule, as a macro reverts its children).
    mutating func undoSteps(_ k: Int) throws {
        guard macros.isEmpty else { throw UndoError(.macroOpen) }
        var end = index
        for _ in 0..<k {
            guard end > 0 else { throw UndoError(.nothingToUndo) }
            end = stepStart(below: end)
        }
        try allOrNothing { model in for _ in 0..<k { try model.undo() } }
    }

    mutating func redoSteps(_ k: Int) throws {
        guard macros.isEmpty else { throw UndoError(.macroOpen) }
        var start = index
        for _ in 0..<k {
            guard start < entries.count else { throw UndoError(.nothingToRedo) }
            start += 1
            while start < entries.count, !entries[start].significant { start += 1 }
        }
        try allOrNothing { model in for _ in 0..<k { try model.redo() } }
    }

    private mutating func allOrNothing(_ body: (inout ReferenceModel) throws -> Void) throws {
        let start = index
        let startCount = entries.count
        do {
            try body(&self)
        } catch {
            let removed = startCount - entries.count
            do { try jump(index < start ? start - removed : start) } catch let rollback {
                throw UndoError(.rollbackFailed, underlying: error, rollback: rollback)
            }
            throw error
        }
    }

    mutating func undo() throws {
        guard macros.isEmpty, index > 0 else { return }
        let start = stepStart
        var i = index
        defer { index = i }
        while i > start {
            try undoEntry(i - 1)
            i -= 1
        }
    }

    mutating func redo() throws {
        guard macros.isEmpty, index < entries.count else { return }
        var i = index
        defer { index = i }
        var first = true
        while i < entries.count, first || !entries[i].significant {
            first = false
            if try redoEntry(i) { i += 1 }
        }
    }

    mutating func jump(_ t: Int) throws {
        guard macros.isEmpty else { return }
        var target = min(max(t, 0), entries.count)
        var i = index
        defer { index = i }
        while i < target {
            if try redoEntry(i) { i += 1 } else { target -= 1 }
        }
        while i > target {
            try undoEntry(i - 1)
            i -= 1
        }
    }

    mutating func beginMacro(_ text: String) {
        if macros.isEmpty { truncate() }
        macros.append((text, []))
    }

    mutating func endMacro() -> Bool {
        guard let m = macros.popLast() else { return false }
        let c = ModelCommand.macro(m.text, m.children)
        if !macros.isEmpty {
            macros[macros.count - 1].children.append(c)
            return true
        }
        entries.append(c)
        index += 1
        if limit > 0, index > limit { trim(index - limit) }
        return true
    }

    mutating func setLimit(_ l: Int) {
        limit = max(0, l)
        guard limit > 0, macros.isEmpty else { return }
        let excess = min(entries.count - limit, index)
        if excess > 0 { trim(excess) }
    }

    /// The texts of the entries, the open outermost macro's last.
    var expectedTexts: [String] { entries.map(\.text) + (macros.first.map { [$0.text] } ?? []) }

    var expectedState: UndoState {
        let enabled = macros.isEmpty
        return UndoState(
            index: index,
            // Qt counts an open outermost macro from beginMacro.
            count: entries.count + (macros.isEmpty ? 0 : 1),
            cleanIndex: clean,
            isClean: enabled && clean == index,
            canUndo: enabled && index > 0,
            canRedo: enabled && index < entries.count,
            undoText: enabled && index > 0 ? entries[stepStart].actionText : "",
            redoText: enabled && index < entries.count ? entries[index].actionText : "",
            macroDepth: macros.count
        )
    }
}

/// Records every change a history publishes, synchronously, through its public change handler.
final class ModelChangeRecorder {
    private(set) var changes: [UndoChange] = []

    init(_ history: some UndoHistory) {
        history.addChangeHandler { [weak self] change in self?.changes.append(change) }
    }

    func take() -> [UndoChange] {
        defer { changes.removeAll() }
        return changes
    }
}

/// Runs the model-based test on a history.
public enum HistoryModelTest: Sendable {
    /// The seed of the first sequence; sequence `n` uses `baseSeed + n`.
    public static let baseSeed: UInt64 = 0x5EED_2026_1129

    /// Runs `sequences` random sequences, each on a new history.
    ///
    /// - Parameters:
    ///   - sequences: How many sequences.
    ///   - makeHistory: Makes an empty, clean history without a limit.
    ///   - push: Pushes a command (a ``ProbeCommand`` or an `UndoMacro` of them) onto the history.
    /// - Returns: The first mismatch (with its seed and operations), or `nil`; and how many steps were compared.
    public static func run<History: UndoHistory>(
        sequences: Int,
        makeHistory: () -> History,
        push: (History, any UndoCommand) throws -> Void
    ) -> (failure: String?, checkedSteps: Int) {
        print("HistoryModelTest seed=\(baseSeed) sequences=\(sequences) history=\(History.self)")
        var checkedSteps = 0
        for sequence in 0..<sequences {
            let seed = baseSeed &+ UInt64(sequence)
            if let failure = runSequence(
                seed: seed, checkedSteps: &checkedSteps, makeHistory: makeHistory, push: push)
            {
                return ("seed=\(seed) (sequence \(sequence)) \(failure)", checkedSteps)
            }
        }
        return (nil, checkedSteps)
    }

    /// Runs one random sequence; returns a description of the first mismatch.
    static func runSequence<History: UndoHistory>(
        seed: UInt64, checkedSteps: inout Int, makeHistory: () -> History,
        push: (History, any UndoCommand) throws -> Void
    ) -> String? {
        var rng = UndoModelRandom(seed: seed)
        let pure = rng.next() % 4 == 0  // no obsolescence, limit, clear or failure: undo-all must empty
        let doc = ProbeDocument()
        let stack = makeHistory()
        var model = ReferenceModel()
        var nextID = 1
        var log: [String] = []
        let steps = Int(rng.next() % 40) + 1
        // Half the sequences run observed (events checked), half on the bare fast path.
        let recorder = seed % 2 == 0 ? ModelChangeRecorder(stack) : nil
        var lastState = stack.state

        func makeLeaf() -> (ProbeCommand, ModelCommand) {
            let id = nextID
            nextID += 1
            let key: Int? = rng.next() % 3 == 0 ? Int(rng.next() % 2) + 1 : nil
            let significant = rng.next() % 7 != 0
            let rule = pure ? .never : ObsoleteRule.allCases[Int(rng.next() % 12) % 4 == 0 ? Int(rng.next() % 4) : 0]
            let cancelAt: Int? = pure ? nil : 4
            let real = ProbeCommand(
                document: doc, ids: [id], key: key, significant: significant, rule: rule, cancelAt: cancelAt)
            let reference = ModelCommand(
                ids: [id], key: key, significant: significant, rule: rule, cancelAt: cancelAt)
            return (real, reference)
        }

        func compare(_ step: Int) -> String? {
            checkedSteps += 1
            var problems: [String] = []
            let expected = model.expectedState
            if stack.state != expected { problems.append("state \(stack.state) != model \(expected)") }
            let realTexts = (0..<stack.count).map { (try? stack.text(at: $0)) ?? "<unreadable>" }
            let modelTexts = model.expectedTexts
            if realTexts != modelTexts { problems.append("texts \(realTexts) != model \(modelTexts)") }
            if doc.applied != model.doc { problems.append("document \(doc.applied) != model \(model.doc)") }
            if doc.outOfOrder != model.outOfOrder {
                problems.append("out-of-order undos \(doc.outOfOrder) != model \(model.outOfOrder)")
            }
            if pure, doc.outOfOrder != 0 { problems.append("an undo ran out of order") }
            if let recorder {
                let events = recorder.take()
                let now = stack.state
                if now != lastState {
                    if events.count != 1 || events[0].old != lastState || events[0].new != now {
                        problems.append("expected one event \(lastState) -> \(now), got \(events)")
                    }
                } else if events.count > 1 || events.contains(where: { $0.operation != .push }) {
                    problems.append("unexpected events without a change: \(events)")
                }
                lastState = now
            }
            guard problems.isEmpty else {
                return "step=\(step): \(problems.joined(separator: "; "))\n  ops: \(log.joined(separator: ", "))"
            }
            return nil
        }

        /// Runs the same operation on both; the outcomes (error or not) must agree.
        func both(_ name: String, _ real: () throws -> Void, _ reference: () throws -> Void) -> String? {
            log.append(name)
            var realError: (any Error)?
            var modelError: (any Error)?
            do { try real() } catch { realError = error }
            do { try reference() } catch { modelError = error }
            if (realError == nil) != (modelError == nil) {
                return
                    "\(name): stack threw \(String(describing: realError)), model threw \(String(describing: modelError))"
            }
            return nil
        }

        for step in 0..<steps {
            let roll = rng.next() % 100
            var mismatch: String?
            switch roll {
            case 0..<38:
                let (real, reference) = makeLeaf()
                mismatch = both("push \(reference.text)", { try push(stack, real) }, { try model.push(reference) })
            case 38..<41:
                let parts = (0...Int(rng.next() % 3)).map { _ in makeLeaf() }
                let text = "m\(parts[0].1.ids[0])"
                let real = UndoMacro(text, children: parts.map(\.0))
                let reference = ModelCommand.macro(text, parts.map(\.1))
                mismatch = both("push macro \(text)", { try push(stack, real) }, { try model.push(reference) })
            case 41..<52:
                mismatch = both("undo", { try stack.undo() }, { try model.undo() })
            case 52..<56:
                let k = Int(rng.next() % 3) + 1
                mismatch = both(
                    "undo \(k) steps", { try stack.undo(steps: k, expecting: nil) }, { try model.undoSteps(k) })
            case 56..<65:
                mismatch = both("redo", { try stack.redo() }, { try model.redo() })
            case 65..<68:
                let k = Int(rng.next() % 3) + 1
                mismatch = both(
                    "redo \(k) steps", { try stack.redo(steps: k, expecting: nil) }, { try model.redoSteps(k) })
            case 68..<74:
                let target = Int(rng.next() % UInt64(model.entries.count + 3)) - 1
                mismatch = both("jump \(target)", { try stack.setIndex(target) }, { try model.jump(target) })
            case 74..<79:
                let text = "M\(step)"
                mismatch = both("begin \(text)", { try stack.beginMacro(text) }, { model.beginMacro(text) })
            case 79..<85:
                mismatch = both(
                    "end",
                    { try stack.endMacro() },
                    { if !model.endMacro() { throw UndoError(.unbalancedGrouping) } }
                )
            case 85..<90:
                mismatch = both(
                    "setClean", { try stack.setClean() }, { if model.macros.isEmpty { model.clean = model.index } })
            case 90..<92:
                mismatch = both("resetClean", { try stack.resetClean() }, { model.clean = nil })
            case 92..<93 where !pure:
                mismatch = both(
                    "clear", { try stack.clear() },
                    {
                        model.entries = []
                        model.macros = []
                        model.index = 0
                        model.clean = 0
                    })
            case 93..<96 where !pure:
                let limit = Int(rng.next() % 6)
                mismatch = both("limit \(limit)", { try stack.setUndoLimit(limit) }, { model.setLimit(limit) })
            case 96..<100 where !pure:
                let countdown = Int(rng.next() % 3) + 1
                mismatch = both(
                    "fail in \(countdown)", { doc.failCountdown = countdown }, { model.failCountdown = countdown })
            default:
                mismatch = both("undo", { try stack.undo() }, { try model.undo() })
            }
            if let mismatch { return "step=\(step): \(mismatch)\n  ops: \(log.joined(separator: ", "))" }
            if let mismatch = compare(step) { return mismatch }
        }

        // Close what is open and stop failures, then undo everything and redo everything.
        doc.failCountdown = 0
        model.failCountdown = 0
        while model.macros.count > 0 {
            if let m = both("end", { try stack.endMacro() }, { _ = model.endMacro() }) { return m }
            if let mismatch = compare(steps) { return mismatch }
        }
        while stack.canRedo {
            if let m = both("redo", { try stack.redo() }, { try model.redo() }) { return m }
            if let mismatch = compare(steps) { return mismatch }
        }
        let final = doc.applied
        while stack.canUndo {
            if let m = both("undo", { try stack.undo() }, { try model.undo() }) { return m }
            if let mismatch = compare(steps) { return mismatch }
        }
        if model.index != 0 { return "undo-all stopped at \(model.index)" }
        if pure, !doc.applied.isEmpty {
            return "undoing everything left \(doc.applied)\n  ops: \(log.joined(separator: ", "))"
        }
        while stack.canRedo {
            if let m = both("redo", { try stack.redo() }, { try model.redo() }) { return m }
            if let mismatch = compare(steps) { return mismatch }
        }
        if pure, doc.applied != final {
            return "redoing everything gave \(doc.applied), expected \(final)\n  ops: \(log.joined(separator: ", "))"
        }
        return nil
    }
}

@available(*, unavailable)
extension ProbeDocument: Sendable {}

@available(*, unavailable)
extension ProbeCommand: Sendable {}
