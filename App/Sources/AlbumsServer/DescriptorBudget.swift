#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections the server may hold without running the process out of file
/// descriptors. Dispatch traps (SIGILL) when it cannot open a descriptor it needs, so a flood of
/// connections must meet the server's refusal long before it meets the process's limit.
enum DescriptorBudget {
    /// Descriptors kept for everything but connections: the standard three, the event loop's
    /// (epoll and its wake-ups), Dispatch's, the library with its `-wal` and `-shm` and the looks
    /// the store takes at them, the listening socket, and a wide margin for what a request opens
    /// for a moment.
    static let reserved = 64

    /// Connections beyond the limit that may wait, for at most two seconds, for their refusal to be
    /// read (a socket closed with its request unread would lose the answer to a reset); past these
    /// a connection is closed at once.
    static let refusing = 16

    /// The most descriptors the soft limit is raised to: enough for any page count `albums serve`
    /// offers (`--max-streams` is at most 10,000).
    static let ceiling = 65_536

    /// Raises the soft descriptor limit towards the hard one (the usual soft 1,024 is meant for
    /// programs that hold few connections; nothing here uses `select`), and returns the connections
    /// that fit under it and the limit itself.
    static func raiseLimit() -> (connections: Int, descriptors: Int) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (1_024 - reserved - refusing, 1_024) }
        let wanted = min(limit.rlim_max, rlim_t(ceiling))
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        let descriptors = Int(clamping: limit.rlim_cur)
        return (max(descriptors - reserved - refusing, 1), descriptors)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
