#if PostgreSQL
import CommandKit
import CommandStore
import PostgreSQLDatabase

/// Following other clients: the revision check, and LISTEN/NOTIFY for views that must be told.
extension PostgreSQLHistory {
    /// Rereads the history if another client has committed since the last read, and then tells
    /// the observers (a `reload` event).
    ///
    /// Cheap enough to call often: when nothing changed it runs one statement reading one row.
    /// While a macro is open the history holds the header's lock, so nothing can have changed.
    /// - Returns: Whether the history reread its state.
    /// - Throws: A `PostgreSQLError` or `StoreError`, or `StoreError/Code/macroState` from
    ///   inside a running call.
    @discardableResult
    public func refresh() throws -> Bool {
        guard isIdle else {
            if engine.macroDepth > 0 { return false }
            throw reentrancyError("refresh")
        }
        guard try !storage.cacheIsCommitted || storage.committedRevision() != storage.revision else { return false }
        let before = storage.revision
        try readCommittedValue { () }
        return storage.revision != before
    }

    /// Starts listening on the history's channel (``tablePrefix``): every client's commit of a
    /// change notifies it. ``waitForChanges(upTo:)`` and ``watchExternalChanges(every:)`` call it
    /// themselves, and again after a reconnect (a new session listens to nothing).
    ///
    /// - Throws: A `PostgreSQLError`.
    public func startListening() throws {
        try connection.listen(to: storage.statements.channel)
        listeningProcess = connection.serverProcessID
    }

    /// Waits up to `timeout` for another client's commit, then rereads the history if there was one.
    ///
    /// Blocks the calling thread while it waits (`.zero` only looks at what has arrived, reading
    /// the socket without a round trip). A notification says only that something changed: the
    /// revision decides, so a spurious one (another history on the same channel) costs one query.
    /// - Parameter timeout: How long to wait for a first notification.
    /// - Returns: Whether the history reread its state.
    /// - Throws: A `PostgreSQLError` (a lost connection is reconnected by the next call).
    @discardableResult
    public func waitForChanges(upTo timeout: Duration) throws -> Bool {
        var mayHaveMissed = false
        if listeningProcess == nil || listeningProcess != connection.serverProcessID {
            try startListening()
            // Commits between the last read and this LISTEN notified nobody here.
            mayHaveMissed = true
        }
        let notifications = try connection.notifications(waitingUpTo: timeout)
        if listeningProcess != connection.serverProcessID {
            // Reconnected while waiting: listen again, and look, as above.
            try startListening()
            mayHaveMissed = true
        }
        let own = connection.serverProcessID
        guard mayHaveMissed || notifications.contains(where: { $0.senderProcessID != own }) else { return false }
        return try refresh()
    }

    /// Follows other clients' commits until the task is cancelled, so that the change stream and
    /// the observable model show them within about `interval` (plus one query).
    ///
    /// Each check reads the socket for notifications without a round trip; only a notification
    /// (or a reconnect) costs a query. It runs on the caller's actor, the history's isolation domain:
    ///
    /// ```swift
    /// let changes = history.changes              // subscribed now
    /// let watcher = Task { try await history.watchExternalChanges() }
    /// for await change in changes { toolbar.update(change.new) }
    /// watcher.cancel()
    /// ```
    ///
    /// - Parameter interval: The time between checks.
    /// - Throws: What ``waitForChanges(upTo:)`` throws. Cancellation ends the loop without an error.
    public func watchExternalChanges(every interval: Duration = .milliseconds(50)) async throws {
        while !Task.isCancelled {
            if isIdle { try waitForChanges(upTo: .zero) }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}
#endif
