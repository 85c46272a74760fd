#if PostgreSQL
import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// LISTEN and NOTIFY: how a client learns at once that another client, on any machine, committed.
extension PostgreSQLConnection {
    /// A notification another session sent with `NOTIFY` (or `pg_notify`), delivered at its commit.
    public struct Notification: Sendable, Hashable {
        /// The channel it was sent on.
        public var channel: String
        /// The text sent with it.
        public var payload: String
        /// The server process of the session that sent it.
        public var senderProcessID: Int32
    }

    /// Starts receiving the notifications sent on `channel`.
    ///
    /// - Parameter channel: The channel's name (any text: it is quoted as an identifier).
    /// - Throws: A ``PostgreSQLError``.
    public func listen(to channel: String) throws(PostgreSQLError) {
        // LISTEN takes no parameters: the name goes in quoted by libpq as an identifier.
        let quoted = try quotedIdentifier(channel)
        try execute("LISTEN \(quoted)")
    }

    /// Sends `payload` on `channel`: delivered to every listening session when this one commits
    /// (at once outside a transaction).
    ///
    /// - Throws: A ``PostgreSQLError``.
    public func notify(_ channel: String, payload: String = "") throws(PostgreSQLError) {
        _ = try query("SELECT pg_notify($1, $2)", [channel, payload])
    }

    /// The notifications that arrive within `timeout` (those already arrived at once; otherwise
    /// it waits for the first, up to `timeout`).
    ///
    /// - Parameter timeout: How long to wait for a first notification.
    /// - Returns: The notifications, oldest first; empty when none came in time.
    /// - Throws: ``PostgreSQLError/Code/connectionLost`` when the connection broke.
    public func notifications(waitingUpTo timeout: Duration) throws(PostgreSQLError) -> [Notification] {
        try reconnectIfLost()
        var received = try drainNotifications()
        guard received.isEmpty else { return received }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var ready: Int32
        repeat {
            ready = poll(&descriptor, 1, milliseconds)
        } while ready == -1 && errno == EINTR
        if ready > 0 { received = try drainNotifications() }
        return received
    }

    private func drainNotifications() throws(PostgreSQLError) -> [Notification] {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgreSQLError(
                .connectionLost, "lost the connection to \(displayName): \(Self.lastError(of: handle))")
        }
        var received: [Notification] = []
        while let notice = PQnotifies(handle) {
            received.append(
                Notification(
                    channel: String(cString: notice.pointee.relname),
                    payload: String(cString: notice.pointee.extra),
                    senderProcessID: notice.pointee.be_pid))
            PQfreemem(notice)
        }
        return received
    }

    /// `name` quoted as an SQL identifier by libpq (for the statements that take no parameters).
    func quotedIdentifier(_ name: String) throws(PostgreSQLError) -> String {
        guard !name.utf8.contains(0) else {
            throw PostgreSQLError(.invalidValue, "a name holds a NUL character")
        }
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else {
            throw PostgreSQLError(.invalidValue, Self.lastError(of: handle))
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }
}
#endif
