extension Database {
    /// How a transaction body ends when it returns normally.
    public enum TransactionCompletion: Sendable, Hashable {
        /// Make the changes permanent (or, in a savepoint, keep them in the enclosing transaction).
        case commit
        /// Discard the changes.
        case rollback
    }

    /// When a transaction takes SQLite's write lock.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public enum TransactionKind: String, Sendable, Hashable {
        /// `BEGIN DEFERRED`: locks on first read or write.
        case deferred = "DEFERRED"
        /// `BEGIN IMMEDIATE`: takes the write lock at once, so it cannot fail later with `SQLITE_BUSY`
        /// when upgrading from read to write. The default.
        case immediate = "IMMEDIATE"
        /// `BEGIN EXCLUSIVE`: in WAL mode, the same as immediate.
        case exclusive = "EXCLUSIVE"

        /// The statement that opens it: a literal, so a commit builds no string.
        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN DEFERRED TRANSACTION"
            case .immediate: "BEGIN IMMEDIATE TRANSACTION"
            case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
            }
        }
    }

    /// Runs `body` inside a transaction: commits when it returns `.commit`, rolls back when it returns
    /// `.rollback` or throws.
    ///
    /// Called inside another transaction, it runs `body` in a savepoint instead (see ``inSavepoint(_:)``),
    /// so a function that needs atomicity can always call it.
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute("DELETE FROM album WHERE id = ?", [id])
    ///     try db.execute("INSERT INTO trash (album) VALUES (?)", [id])
    ///     return .commit
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - kind: When to take the write lock; ignored when nested.
    ///   - body: The work. Its changes become visible to other connections only at commit.
    /// - Throws: The first error: what `body` threw (after a rollback, whose own failure is then
    ///   ignored), or the ``DatabaseError`` of `BEGIN`, `COMMIT` or `ROLLBACK`. A failed commit is
    ///   rolled back before its error is thrown.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public func inTransaction(
        _ kind: TransactionKind = .immediate,
        _ body: () throws -> TransactionCompletion
    ) throws {
        if isInsideTransaction {
            try inSavepoint(body)
            return
        }
        try (kind == .immediate ? beginImmediate() : cachedStatement(kind.beginSQL)).execute()
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let completion: TransactionCompletion
        do {
            completion = try body()
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try commit().execute()
            } catch {
                rollbackIgnoringErrors()
                throw error
            }
        case .rollback:
            // SQLite may already have rolled back (after SQLITE_FULL, for one): nothing left to undo.
            if isInsideTransaction { try cachedStatement("ROLLBACK TRANSACTION").execute() }
        }
    }

    /// Runs `body` inside a savepoint: a nested transaction that commits or rolls back on its own
    /// while the enclosing transaction goes on.
    ///
    /// Outside any transaction, it behaves as ``inTransaction(_:_:)`` with `.immediate`.
    ///
    /// - Parameter body: The work; return `.commit` to keep its changes in the enclosing transaction,
    ///   `.rollback` (or throw) to discard them and only them.
    /// - Throws: What `body` threw (after rolling the savepoint back), or a ``DatabaseError``.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_savepoint.html>
    public func inSavepoint(_ body: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else {
            try inTransaction(.immediate, body)
            return
        }
        let name = "commandstore_savepoint_\(transactionDepth)"
        try cachedStatement("SAVEPOINT \(name)").execute()
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let completion: TransactionCompletion
        do {
            completion = try body()
        } catch {
            rollbackIgnoringErrors(savepoint: name)
            throw error
        }
        switch completion {
        case .commit:
            try cachedStatement("RELEASE SAVEPOINT \(name)").execute()
        case .rollback:
            try cachedStatement("ROLLBACK TO SAVEPOINT \(name)").execute()
            try cachedStatement("RELEASE SAVEPOINT \(name)").execute()
        }
    }

    /// Rolls back after a failure; the failure is what the caller reports, not this rollback.
    private func rollbackIgnoringErrors(savepoint: String? = nil) {
        guard isInsideTransaction else { return }
        if let savepoint {
            try? execute("ROLLBACK TO SAVEPOINT \(savepoint)")
            try? execute("RELEASE SAVEPOINT \(savepoint)")
        } else {
            try? execute("ROLLBACK TRANSACTION")
        }
    }
}

extension Database {
    /// The main database's data version (`SQLITE_FCNTL_DATA_VERSION`): it changes with every
    /// commit to the file, this connection's own included, and costs no statement. Another
    /// connection's commit is counted when this one next starts a transaction.
    ///
    /// - Throws: ``DatabaseError`` when the connection is closed.
    package func dataVersion() throws -> UInt32 {
        try connection.dataVersion()
    }
}
