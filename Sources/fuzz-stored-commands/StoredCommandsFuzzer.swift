import CommandKit
import CommandStore
import Foundation
import FuzzSupport
import SQLiteDatabase

/// One fuzz case: a durable history whose rows (header and entries) are written from the input,
/// then opened and driven by operations also read from the input.
///
/// Whatever the rows hold, every call must either work or throw; a crash, a hang or a broken
/// invariant (checked with `fatalError`, so libFuzzer records the input) is a bug.
enum StoredCommandsFuzzer {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        guard let database = try? Database.openStore(path: ":memory:", schemas: [FuzzLibrary.schema]) else {
            fatalError("an in-memory store does not open")
        }
        defer { database.close() }
        writeRows(from: &input, into: database)
        let library = FuzzLibrary(database: database)
        guard let history = try? DurableHistory(database: database, receiver: library, registry: FuzzLibrary.registry)
        else {
            return  // a damaged header is refused at open: fine
        }
        drive(history, with: &input)
    }

    // MARK: Rows

    private static let table = "commandstore_history_entry"

    private static func writeRows(from input: inout FuzzInput, into database: Database) {
        let base = integer(from: &input)
        let header: [any DatabaseValueConvertible] = [
            base,
            column(from: &input, preferring: .integer),
            column(from: &input, preferring: .integer),
            column(from: &input, preferring: .integer),
            column(from: &input, preferring: .integer),
        ]
        let updateHeader =
            "UPDATE commandstore_history_header SET base = ?, count = ?, current_index = ?, clean_index = ?, undo_limit = ? WHERE singleton = 1"
        guard (try? database.execute(updateHeader, header)) != nil else { fatalError("the header row does not update") }
        let entryCount = Int(input.byte() % 6)
        let insertEntry = """
            INSERT OR REPLACE INTO commandstore_history_entry
                (sequence, kind, version, text, action_text, merge_id, significant, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        for offset in 0..<entryCount {
            // Mostly the sequence the header implies; sometimes another one (a gap, a collision).
            let sequence = input.byte() < 230 ? base &+ Int64(offset) : integer(from: &input)
            let arguments: [any DatabaseValueConvertible] = [
                sequence,
                kindColumn(from: &input),
                column(from: &input, preferring: .integer),
                column(from: &input, preferring: .text),
                column(from: &input, preferring: .text),
                column(from: &input, preferring: .null),
                column(from: &input, preferring: .integer),
                DatabaseValue.blob(payload(from: &input, depth: 0)),
            ]
            guard (try? database.execute(insertEntry, arguments)) != nil else {
                fatalError("an entry row does not insert")
            }
        }
    }

    private enum ColumnType {
        case null, integer, text
    }

    /// An integer: small most of the time, sometimes any 64-bit value.
    private static func integer(from input: inout FuzzInput) -> Int64 {
        let choice = input.byte()
        switch choice {
        case 0..<200: return Int64(choice % 8)
        case 200..<230: return input.integer(width: 2)
        default: return input.integer(width: 8)
        }
    }

    /// A column value: mostly of the type the reader expects, sometimes of another.
    private static func column(from input: inout FuzzInput, preferring type: ColumnType) -> DatabaseValue {
        let choice = input.byte()
        let chosen: UInt8 = choice < 216 ? 255 : choice % 5
        switch (chosen, type) {
        case (255, .null), (0, _): return .null
        case (255, .integer), (1, _): return .integer(integer(from: &input))
        case (255, .text), (2, _): return .text(string(from: &input))
        case (3, _): return .real(Double(input.integer(width: 2)) / 3)
        default: return .blob(Data(input.chunk(limit: 16)))
        }
    }

    private static func string(from input: inout FuzzInput) -> String {
        String(decoding: input.chunk(limit: 24), as: UTF8.self)
    }

    private static func kindColumn(from input: inout FuzzInput) -> DatabaseValue {
        switch input.byte() % 8 {
        case 0: .null
        case 1: .text("fuzz.set")
        case 2: .text("fuzz.add")
        case 3: .text("fuzz.rename")
        case 4: .text("fuzz.unknown")
        default: column(from: &input, preferring: .text)
        }
    }

    /// A payload: valid JSON of a registered command with fuzzed values, a macro's children, or raw bytes.
    private static func payload(from input: inout FuzzInput, depth: Int) -> Data {
        let id = integer(from: &input)
        let value = integer(from: &input)
        let json: String
        switch input.byte() % 8 {
        case 0: return Data(input.chunk(limit: 64))
        case 1: json = #"{"id":\#(id),"value":\#(value),"previous":\#(integer(from: &input))}"#
        case 2: json = #"{"id":\#(id),"new":\#(value)}"#
        case 3: json = #"{"id":\#(id),"amount":\#(value)}"#
        case 4:
            let name = string(from: &input).debugDescription  // a quoted, escaped JSON-compatible string
            json = #"{"id":\#(id),"name":\#(name),"tags":{"a":[\#(value),1e308,-0.0]}}"#
        case 5 where depth < 3:
            return macroChildren(from: &input, depth: depth + 1)
        default:
            // Valid JSON with one byte changed.
            var bytes = Array(#"{"id":\#(id),"value":\#(value),"amount":\#(value),"name":"x"}"#.utf8)
            let position = Int(input.byte()) % bytes.count
            bytes[position] = input.byte()
            return Data(bytes)
        }
        return Data(json.utf8)
    }

    /// A macro's payload: the JSON array of its children, each in the stored entry's coded shape.
    private static func macroChildren(from input: inout FuzzInput, depth: Int) -> Data {
        var children: [[String: Any]] = []
        for _ in 0..<Int(input.byte() % 4) {
            var child: [String: Any] = [
                "version": Int(integer(from: &input)),
                "text": string(from: &input),
                "actionText": "a",
                "isSignificant": input.byte() % 4 != 0,
                "payload": payload(from: &input, depth: depth).base64EncodedString(),
            ]
            switch input.byte() % 6 {
            case 0: break  // a nested macro
            case 1: child["kind"] = "fuzz.set"
            case 2: child["kind"] = "fuzz.add"
            case 3: child["kind"] = "fuzz.rename"
            case 4: child["kind"] = 17  // the wrong type
            default: child["kind"] = string(from: &input)
            }
            if input.byte() % 2 == 0 { child["mergeID"] = Int(integer(from: &input)) }
            if input.byte() % 16 == 0 { child.removeValue(forKey: "text") }
            children.append(child)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: children) else {
            fatalError("macro children do not encode")
        }
        return data
    }

    // MARK: Operations

    private static func drive(_ history: DurableHistory<FuzzLibrary>, with input: inout FuzzInput) {
        var history = history
        var steps = 0
        var revision = history.revision
        while !input.isAtEnd, steps < 40 {
            steps += 1
            let operation = input.byte() % 16
            switch operation {
            case 0, 1: if history.canUndo { try? history.undo() }
            case 2, 3: if history.canRedo { try? history.redo() }
            case 4: try? history.setIndex(Int(input.byte()) % (history.count + 2) - 1)
            case 5: if history.count > 0 { _ = try? history.text(at: Int(input.byte()) % history.count) }
            case 6: try? history.verifyEntries()
            case 7: _ = try? history.push(SetCell(id: Int(input.byte() % 4), value: Int(input.byte()), previous: nil))
            case 8: _ = try? history.push(AddToCell(id: Int(input.byte() % 4), amount: Int(input.integer(width: 1))))
            case 9: _ = try? history.push(RenameCell(id: 1, name: string(from: &input), tags: nil))
            case 10: try? history.beginMacro("macro")
            case 11: if history.macroDepth > 0 { try? history.endMacro() }
            case 12: try? (input.byte() % 2 == 0 ? history.setClean() : history.resetClean())
            case 13: try? history.setUndoLimit(Int(input.byte() % 5))
            case 14: if history.macroDepth == 0 { try? history.clear() }
            default:
                // Reopen, as a later process would: the state must be what the file says.
                guard history.macroDepth == 0 else { break }
                guard
                    let reopened = try? DurableHistory(
                        database: history.database, receiver: history.receiver, registry: history.registry)
                else {
                    break
                }
                check(history, agreesWith: reopened, step: steps)
                history = reopened
            }
            check(history, step: steps)
            // Only commits raise it; a failed call rolls back to what the file says.
            guard history.revision >= revision else {
                fatalError("step \(steps): the revision went back from \(revision) to \(history.revision)")
            }
            revision = history.revision
            if trace {
                let state = history.state
                let line =
                    "step \(steps): operation \(operation): index \(state.index), count \(state.count), "
                    + "clean \(state.cleanIndex.map(String.init) ?? "none"), macro depth \(state.macroDepth)\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
    }

    /// `FUZZ_TRACE=1` prints each operation and the state after it (to read a crasher).
    private static let trace = ProcessInfo.processInfo.environment["FUZZ_TRACE"] == "1"

    private static func check(_ history: DurableHistory<FuzzLibrary>, step: Int) {
        let state = history.state
        guard state.count >= 0, (0...state.count).contains(state.index) else {
            fatalError("step \(step): index \(state.index) outside 0...\(state.count)")
        }
        if let clean = state.cleanIndex, !(0...state.count).contains(clean) {
            fatalError("step \(step): clean index \(clean) outside 0...\(state.count)")
        }
    }

    private static func check(
        _ history: DurableHistory<FuzzLibrary>, agreesWith reopened: DurableHistory<FuzzLibrary>, step: Int
    ) {
        guard history.index == reopened.index, history.count == reopened.count,
            history.cleanIndex == reopened.cleanIndex, history.revision == reopened.revision
        else {
            fatalError(
                "step \(step): the history in memory (index \(history.index), count \(history.count), revision "
                    + "\(history.revision)) is not what reopening reads (index \(reopened.index), count "
                    + "\(reopened.count), revision \(reopened.revision))"
            )
        }
    }
}
