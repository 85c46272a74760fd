import CommandStore
import SQLiteDatabase

/// The receiver: eight integer cells in one table.
final class Cells {
    static let count = 8

    static let schema = Schema(
        identifier: "cells",
        migrations: [
            Migration(version: 1, name: "cells") { db in
                try db.execute("CREATE TABLE cell (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
                for id in 0..<count { try db.execute("INSERT INTO cell (id, value) VALUES (?, 0)", [id]) }
            }
        ])

    static var registry: CommandRegistry<Cells> {
        var registry = CommandRegistry<Cells>()
        registry.register(SetCell.self)
        registry.register(AddToCell.self)
        return registry
    }

    let database: Database

    init(database: Database) {
        self.database = database
    }

    func value(_ id: Int) throws -> Int {
        try database.fetchOne("SELECT value FROM cell WHERE id = ?", [id])!.decode(Int.self, at: 0)
    }

    func set(_ id: Int, _ value: Int) throws {
        try database.execute("UPDATE cell SET value = ? WHERE id = ?", [value, id])
    }

    /// The cells as `v0,v1,...`: what the parent compares.
    func digest() throws -> String {
        try database.fetchAll("SELECT value FROM cell ORDER BY id").map { String(try $0.decode(Int.self, at: 0)) }
            .joined(separator: ",")
    }
}

/// Sets a cell, remembering the old value for undo.
struct SetCell: PersistentCommand {
    static let kind = "crash.set"
    var id: Int
    var value: Int
    var previous: Int?

    var text: String { "set:c\(id)=\(value)" }

    mutating func redo(on cells: Cells) throws {
        previous = try cells.value(id)
        try cells.set(id, value)
    }

    func undo(on cells: Cells) throws {
        try cells.set(id, previous ?? 0)
    }
}

/// Adds to a cell; consecutive adds to one cell merge, and cancel out when they sum to zero.
struct AddToCell: PersistentCommand {
    static let kind = "crash.add"
    var id: Int
    var amount: Int

    var text: String { "add:c\(id)\(amount < 0 ? "" : "+")\(amount)" }
    var mergeID: Int? { id }
    var isObsolete: Bool { amount == 0 }

    func redo(on cells: Cells) throws { try cells.set(id, try cells.value(id) + amount) }
    func undo(on cells: Cells) throws { try cells.set(id, try cells.value(id) - amount) }

    mutating func merge(with other: AddToCell) -> Bool {
        amount += other.amount
        return true
    }
}

/// A plain-Swift model of the same history rules, used to predict each operation's outcome.
struct Model {
    enum Step {
        case set(id: Int, value: Int, previous: Int)
        case add(id: Int, amount: Int)
        indirect case macro(text: String, children: [Step])

        var actionText: String {
            switch self {
            case .set(let id, let value, _): "set:c\(id)=\(value)"
            case .add(let id, let amount): "add:c\(id)\(amount < 0 ? "" : "+")\(amount)"
            case .macro(let text, _): text
            }
        }

        func apply(_ cells: inout [Int]) {
            switch self {
            case .set(let id, let value, _): cells[id] = value
            case .add(let id, let amount): cells[id] += amount
            case .macro(_, let children): for child in children { child.apply(&cells) }
            }
        }

        func revert(_ cells: inout [Int]) {
            switch self {
            case .set(let id, _, let previous): cells[id] = previous
            case .add(let id, let amount): cells[id] -= amount
            case .macro(_, let children): for child in children.reversed() { child.revert(&cells) }
            }
        }
    }

    /// A command about to be pushed.
    enum Command {
        case set(id: Int, value: Int)
        case add(id: Int, amount: Int)
    }

    var cells = Array(repeating: 0, count: Cells.count)
    var steps: [Step] = []
    var index = 0
    var cleanIndex: Int? = 0

    var digest: String { cells.map(String.init).joined(separator: ",") }
    var undoText: String { index > 0 ? steps[index - 1].actionText : "" }
    var redoText: String { index < steps.count ? steps[index].actionText : "" }

    /// Runs a command and records it: `UndoStack`'s push rules without a limit.
    mutating func push(_ command: Command) {
        let step = run(command)
        if index < steps.count {
            steps.removeSubrange(index...)
            if let clean = cleanIndex, clean > index { cleanIndex = nil }
        }
        if case .add(let id, let amount) = step, index > 0, index != cleanIndex,
            case .add(let topID, let topAmount) = steps[index - 1], topID == id
        {
            steps[index - 1] = .add(id: id, amount: topAmount + amount)
            if topAmount + amount == 0 {
                steps.remove(at: index - 1)
                index -= 1
            }
            return
        }
        steps.append(step)
        index += 1
    }

    /// Runs a command and returns its step (with what it captured).
    mutating func run(_ command: Command) -> Step {
        let step: Step
        switch command {
        case .set(let id, let value): step = .set(id: id, value: value, previous: cells[id])
        case .add(let id, let amount): step = .add(id: id, amount: amount)
        }
        step.apply(&cells)
        return step
    }

    /// Runs a macro's commands and records it as one step (children merge as in the engine).
    mutating func pushMacro(text: String, _ commands: [Command]) {
        if index < steps.count {
            steps.removeSubrange(index...)
            if let clean = cleanIndex, clean > index { cleanIndex = nil }
        }
        var children: [Step] = []
        for command in commands {
            let step = run(command)
            if case .add(let id, let amount) = step, case .add(let lastID, let lastAmount)? = children.last,
                lastID == id
            {
                children[children.count - 1] = .add(id: id, amount: lastAmount + amount)
                if lastAmount + amount == 0 { children.removeLast() }
                continue
            }
            children.append(step)
        }
        steps.append(.macro(text: text, children: children))
        index += 1
    }

    mutating func undo() {
        guard index > 0 else { return }
        index -= 1
        steps[index].revert(&cells)
    }

    mutating func redo() {
        guard index < steps.count else { return }
        steps[index].apply(&cells)
        index += 1
    }

    mutating func setClean() {
        cleanIndex = index
    }
}
