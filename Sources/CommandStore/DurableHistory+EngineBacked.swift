package import CommandKit
import SQLiteDatabase

/// What ``EngineBackedHistory`` asks of the SQLite history: its transactions and its file's name.
extension DurableHistory: EngineBackedHistory {
    package var place: String { database.path }

    package var otherWriter: String { "another process" }

    package func readCommittedValue<T>(_ body: () throws -> T) throws -> T {
        try readCommitted(body).value
    }

    package func storeError(_ code: StoreError.Code, _ message: String, undoErrorCode: UndoError.Code?) -> StoreError {
        StoreError(code, message, path: database.path, undoErrorCode: undoErrorCode)
    }
}
