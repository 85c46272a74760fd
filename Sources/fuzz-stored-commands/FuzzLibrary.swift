import CommandStore
import Foundation
import SQLiteDatabase

/// The receiver: integer cells in one table. Every method tolerates any id (a damaged history may
/// name cells that do not exist), so a crash the fuzzer finds is CommandStore's, not the harness's.
final class FuzzLibrary {
    static let schema = Schema(
        identifier: "fuzz",
        migrations: [
            Migration(
                version: 1, name: "cells", sql: "CREATE TABLE cell (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
        ])

    static var registry: CommandRegistry<FuzzLibrary> {
        var registry = CommandRegistry<FuzzLibrary>()
        registry.register(SetCell.self)
        registry.register(AddToCell.self)
        registry.register(RenameCell.self)
        return registry
    }

    let database: Database

    init(database: Database) {
        self.database = database
    }

    func value(_ id: Int) throws -> Int {
        try database.fetchOne("SELECT value FROM cell WHERE id = ?", [id])?.decode(Int.self, at: 0) ?? 0
    }

    func set(_ id: Int, _ value: Int) throws {
        try database.execute("INSERT OR REPLACE INTO cell (id, value) VALUES (?, ?)", [id, value])
    }
}

/// Sets a cell, remembering the old value. Version 2; version 1 stored `new` instead of `value`.
struct SetCell: PersistentCommand {
    static let kind = "fuzz.set"
    static let version = 2
    var id: Int
    var value: Int
    var previous: Int?

    var text: String { "set c\(id)" }

    mutating func redo(on library: FuzzLibrary) throws {
        previous = try library.value(id)
        try library.set(id, value)
    }

    func undo(on library: FuzzLibrary) throws {
        try library.set(id, previous ?? 0)
    }

    private struct Version1: Decodable {
        var id: Int
        var new: Int
    }

    static func decode(_ data: Data, version: Int) throws -> SetCell {
        if version == 1 {
            let old = try JSONDecoder().decode(Version1.self, from: data)
            return SetCell(id: old.id, value: old.new, previous: nil)
        }
        return try JSONDecoder().decode(SetCell.self, from: data)
    }
}

/// Adds to a cell; adds to one cell merge, and vanish when they sum to zero. Wrapping arithmetic:
/// stored amounts are arbitrary.
struct AddToCell: PersistentCommand {
    static let kind = "fuzz.add"
    var id: Int
    var amount: Int

    var text: String { "add c\(id)" }
    var mergeID: Int? { id }
    var isObsolete: Bool { amount == 0 }

    func redo(on library: FuzzLibrary) throws { try library.set(id, try library.value(id) &+ amount) }
    func undo(on library: FuzzLibrary) throws { try library.set(id, try library.value(id) &- amount) }

    mutating func merge(with other: AddToCell) -> Bool {
        amount = amount &+ other.amount
        return true
    }
}

/// A command with a string and an optional nested value: more JSON shapes for the decoder.
struct RenameCell: PersistentCommand {
    static let kind = "fuzz.rename"
    var id: Int
    var name: String
    var tags: [String: [Double]]?

    var text: String { name }
    var isSignificant: Bool { !name.isEmpty }

    func redo(on library: FuzzLibrary) throws { try library.set(id, name.utf8.count) }
    func undo(on library: FuzzLibrary) throws { try library.set(id, 0) }
}
