// commandstore-crash-child: the child process of CommandStore's crash test.
//
//     commandstore-crash-child run <path> <seed> <full|normal>
//         Performs random history operations forever. Before each one it prints
//         `intent <n> <index> <count> <clean> <digest> <undoText> <redoText>` (the state the
//         operation will leave, predicted by a plain model), and after its commit `ack <n>`.
//     commandstore-crash-child verify <path>
//         Reopens the store and prints `state <index> <count> <clean> <digest> <undoText> <redoText>`,
//         then undoes everything (`undone <digest>`) and jumps back (`restored <digest>`).
//     commandstore-crash-child push <path> <value>
//         Opens (or creates) the store, pushes one `set:c0=<value>`, prints `pushed <undoText>`.
//     commandstore-crash-child undo <path>
//         Opens the store, undoes one step, prints `undone <redoText>`.
//         (These two are the other process of CrossProcessTextsTests.)
//
// The parent kills `run` with SIGKILL at random moments and checks `verify`'s view against the acks.

import CommandStore
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard output at once, unbuffered: an ack must leave before the next step.
func emit(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeMutableBufferPointer { write(1, $0.baseAddress, $0.count) }
        if written <= 0 { exit(3) }
        offset += written
    }
    bytes.removeAll()
}

func fail(_ message: String) -> Never {
    let line = "commandstore-crash-child: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func text(_ text: String) -> String { text.isEmpty ? "-" : text }

func describe(index: Int, count: Int, clean: Int?, digest: String, undo: String, redo: String) -> String {
    "\(index) \(count) \(clean.map(String.init) ?? "none") \(digest) \(text(undo)) \(text(redo))"
}

/// SplitMix64: the workload repeats exactly for a seed.
struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

func openHistory(
    _ path: String, synchronous: Database.Configuration.Synchronous
) throws -> (Cells, DurableHistory<Cells>) {
    var configuration = Database.Configuration()
    configuration.createIfMissing = true
    configuration.synchronous = synchronous
    let db = try Database.openStore(path: path, schemas: [Cells.schema], configuration: configuration)
    let cells = Cells(database: db)
    return (cells, try DurableHistory(database: db, receiver: cells, registry: Cells.registry))
}

func randomCommand(_ generator: inout Generator) -> Model.Command {
    let id = generator.below(Cells.count)
    if generator.below(2) == 0 {
        return .set(id: id, value: generator.below(1000))
    }
    // Small amounts of both signs, never zero: merges often, and sometimes cancels out.
    let amount = generator.below(5) + 1
    return .add(id: id, amount: generator.below(2) == 0 ? amount : -amount)
}

func push(_ command: Model.Command, on history: DurableHistory<Cells>) throws {
    switch command {
    case .set(let id, let value): try history.push(SetCell(id: id, value: value))
    case .add(let id, let amount): try history.push(AddToCell(id: id, amount: amount))
    }
}

func run(path: String, seed: UInt64, synchronous: Database.Configuration.Synchronous) throws -> Never {
    let (cells, history) = try openHistory(path, synchronous: synchronous)
    guard history.count == 0 else { fail("run expects a new store") }
    var model = Model()
    var generator = Generator(state: seed)
    emit("ready")
    var operation = 0
    while true {
        operation += 1
        var next = model
        let roll = generator.below(100)
        var perform: () throws -> Void
        switch roll {
        case 0..<55:
            let command = randomCommand(&generator)
            next.push(command)
            perform = { try push(command, on: history) }
        case 55..<75:
            next.undo()
            perform = { try history.undo() }
        case 75..<87:
            next.redo()
            perform = { try history.redo() }
        case 87..<95:
            let commands = (0..<(generator.below(4) + 2)).map { _ in randomCommand(&generator) }
            let text = "macro:\(operation)"
            next.pushMacro(text: text, commands)
            perform = {
                try history.beginMacro(text)
                for command in commands { try push(command, on: history) }
                try history.endMacro()
            }
        default:
            next.setClean()
            perform = { try history.setClean() }
        }
        emit(
            "intent \(operation) "
                + describe(
                    index: next.index, count: next.steps.count, clean: next.cleanIndex,
                    digest: next.digest, undo: next.undoText, redo: next.redoText
                ))
        try perform()
        // The model and the real history must agree before the step is acknowledged.
        let digest = try cells.digest()
        guard history.index == next.index, history.count == next.steps.count, history.cleanIndex == next.cleanIndex,
            digest == next.digest, history.undoText == next.undoText, history.redoText == next.redoText
        else {
            fail(
                "operation \(operation): history \(history.state) cells \(digest) differ from the model "
                    + describe(
                        index: next.index, count: next.steps.count, clean: next.cleanIndex,
                        digest: next.digest, undo: next.undoText, redo: next.redoText))
        }
        model = next
        emit("ack \(operation)")
    }
}

func verify(path: String) throws {
    var configuration = Database.Configuration()
    configuration.createIfMissing = false
    let db = try Database.openStore(path: path, schemas: [Cells.schema], configuration: configuration)
    let cells = Cells(database: db)
    let history = try DurableHistory(database: db, receiver: cells, registry: Cells.registry)
    let index = history.index
    emit(
        "state "
            + describe(
                index: index, count: history.count, clean: history.cleanIndex,
                digest: try cells.digest(), undo: history.undoText, redo: history.redoText
            ))
    while history.canUndo { try history.undo() }
    emit("undone \(try cells.digest())")
    try history.setIndex(index)
    emit("restored \(try cells.digest())")
}

/// One step from another process, for a test's history to follow.
func pushOne(path: String, value: Int) throws {
    let (_, history) = try openHistory(path, synchronous: .normal)
    try history.push(SetCell(id: 0, value: value))
    emit("pushed \(history.undoText)")
}

func undoOne(path: String) throws {
    let (_, history) = try openHistory(path, synchronous: .normal)
    try history.undo()
    emit("undone \(history.redoText)")
}

let arguments = CommandLine.arguments
do {
    switch arguments.count > 1 ? arguments[1] : "" {
    case "run" where arguments.count == 5:
        guard let seed = UInt64(arguments[3]) else { fail("bad seed \(arguments[3])") }
        try run(path: arguments[2], seed: seed, synchronous: arguments[4] == "full" ? .full : .normal)
    case "verify" where arguments.count == 3:
        try verify(path: arguments[2])
    case "push" where arguments.count == 4:
        guard let value = Int(arguments[3]) else { fail("bad value \(arguments[3])") }
        try pushOne(path: arguments[2], value: value)
    case "undo" where arguments.count == 3:
        try undoOne(path: arguments[2])
    default:
        fail(
            "usage: commandstore-crash-child run <path> <seed> <full|normal> | verify <path> | push <path> <value>"
                + " | undo <path>")
    }
} catch {
    fail("\(error)")
}
