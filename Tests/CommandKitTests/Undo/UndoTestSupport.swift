import Locking

@testable import CommandKit

/// A thread-safe flag for observation callbacks (which are `@Sendable`).
final class UndoTestFlag: Sendable {
    private let value = LockedState(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// A document the test commands edit: a list of lines.
final class UndoTestDocument {
    var lines: [String] = []
    /// When set, the next command call (redo or undo) throws `UndoTestFailure` and clears it.
    var failNextCall = false
}

struct UndoTestFailure: Error, Equatable {
    var message = "planned failure"
}

/// Appends a line on redo, removes it on undo.
struct AppendLine: UndoCommand {
    let document: UndoTestDocument
    let line: String
    var text: String { "Add \(line)" }
    var actionText: String { "Add Line" }
    var isSignificant = true

    init(_ document: UndoTestDocument, _ line: String, significant: Bool = true) {
        self.document = document
        self.line = line
        self.isSignificant = significant
    }

    mutating func redo() throws {
        if document.failNextCall {
            document.failNextCall = false
            throw UndoTestFailure()
        }
        document.lines.append(line)
    }

    mutating func undo() throws {
        if document.failNextCall {
            document.failNextCall = false
            throw UndoTestFailure()
        }
        precondition(document.lines.last == line, "undo out of order")
        document.lines.removeLast()
    }
}

/// Typing: appends characters to the last line; consecutive typing merges into one command.
struct TypeText: UndoCommand {
    let document: UndoTestDocument
    var typed: String
    var refuseMerge = false
    var text: String { "Type \(typed)" }
    var mergeID: Int? { 7 }
    /// Typing that ends up empty (a merged backspace would do this) is obsolete.
    var isObsolete: Bool { typed.isEmpty }

    mutating func redo() throws {
        if document.lines.isEmpty { document.lines.append("") }
        document.lines[document.lines.count - 1] += typed
    }

    mutating func undo() throws {
        document.lines[document.lines.count - 1].removeLast(typed.count)
    }

    mutating func merge(with other: TypeText) -> Bool {
        guard !other.refuseMerge else { return false }
        typed += other.typed
        return true
    }
}

/// Removes the last `count` characters of the last line: merged into typing, it can cancel it out.
struct Backspace: UndoCommand {
    let document: UndoTestDocument
    var text: String { "Backspace" }
    var removed = ""
    mutating func redo() throws { removed = String(document.lines[document.lines.count - 1].removeLast()) }
    mutating func undo() throws { document.lines[document.lines.count - 1] += removed }
}

/// A command that turns obsolete when it runs (`onRedo`) or when it is undone (`onUndo`).
struct SelfRemovingCommand: UndoCommand {
    enum When { case onPush, onRedoAfterPush, onUndo }
    let document: UndoTestDocument
    let when: When
    var runs = 0
    var isObsolete = false
    var text: String { "Self-removing" }

    mutating func redo() throws {
        runs += 1
        document.lines.append("x")
        if when == .onPush || (when == .onRedoAfterPush && runs > 1) { isObsolete = true }
    }

    mutating func undo() throws {
        document.lines.removeLast()
        if when == .onUndo { isObsolete = true }
    }
}

/// Records every change a stack publishes, synchronously.
final class ChangeRecorder {
    private(set) var changes: [UndoChange] = []

    init(_ stack: UndoStack) {
        stack.addChangeHandler { [weak self] change in self?.changes.append(change) }
    }

    /// The changes recorded since the last call.
    func take() -> [UndoChange] {
        defer { changes.removeAll() }
        return changes
    }
}

/// A state literal for `#expect(stack.state == …)`.
func state(
    index: Int,
    count: Int,
    clean: Int? = 0,
    undo: String = "",
    redo: String = "",
    macroDepth: Int = 0
) -> UndoState {
    UndoState(
        index: index,
        count: count,
        cleanIndex: clean,
        isClean: macroDepth == 0 && clean == index,
        canUndo: macroDepth == 0 && index > 0,
        canRedo: macroDepth == 0 && index < count,
        undoText: macroDepth == 0 ? undo : "",
        redoText: macroDepth == 0 ? redo : "",
        macroDepth: macroDepth
    )
}

/// Texts of all entries, oldest first.
func texts(_ stack: UndoStack) -> [String] {
    (0..<stack.count).map { stack.text(at: $0) }
}
