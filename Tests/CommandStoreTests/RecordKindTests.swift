import CommandKit
import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// A record names its command's kind, so a reader can tell what a step is without decoding it.
@Suite struct RecordKindTests {
    @Test func eachRecordNamesItsCommandsKindAndAMacroNone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        configuration.createIfMissing = true
        let path = directory.file("h.sqlite")
        do {
            let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
            defer { db.close() }
            let history = try DurableHistory(
                database: db, receiver: NumberList(database: db), registry: NumberList.registry)
            try history.push(Append(value: 1))
            try history.beginMacro("Two more")
            try history.push(Append(value: 2))
            try history.push(Append(value: 3))
            try history.endMacro()
            #expect(history.undoRecord?.kind == nil)
        }
        // Read back by another connection: from the stored rows.
        let db = try Database.openStore(path: path, schemas: [NumberList.schema], configuration: configuration)
        defer { db.close() }
        let history = try DurableHistory(
            database: db, receiver: NumberList(database: db), registry: NumberList.registry)
        #expect(try history.records().records.map(\.kind) == [Append.kind, nil])
    }
}
