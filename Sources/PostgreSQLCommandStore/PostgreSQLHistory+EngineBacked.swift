#if PostgreSQL
package import CommandKit
package import CommandStore

/// What CommandStore's `EngineBackedHistory` asks of the PostgreSQL history: its transactions
/// and its place on the server.
extension PostgreSQLHistory: EngineBackedHistory {
    package var place: String { storage.place }

    package var otherWriter: String { "another client" }

    package func storeError(_ code: StoreError.Code, _ message: String, undoErrorCode: UndoError.Code?) -> StoreError {
        StoreError(code, message, undoErrorCode: undoErrorCode)
    }
}
#endif
