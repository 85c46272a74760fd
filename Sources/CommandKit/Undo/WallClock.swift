#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time of day, for the times a branching history records with each step (``HistoryNode``).
enum WallClock {
    /// Whole seconds since 1970 (UTC), from the cheapest clock there is: on Linux `time`, which
    /// the vDSO answers from the coarse clock in a few instructions, where the precise clock costs
    /// a push a tenth of its time.
    @inline(__always)
    static func seconds() -> Int64 {
        #if os(Linux)
        return Int64(time(nil))
        #else
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
        #endif
    }

    /// Milliseconds since 1970 (UTC).
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
