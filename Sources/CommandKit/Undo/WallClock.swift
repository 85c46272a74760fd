#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time of day, for the times a branching history records with each step (``HistoryNode``).
enum WallClock {
    /// Whole seconds since 1970 (UTC), from the coarse clock where there is one (a few
    /// nanoseconds, where the precise one costs a push a tenth of its time).
    @inline(__always)
    static func seconds() -> Int64 {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        return Int64(now.tv_sec)
    }

    /// Milliseconds since 1970 (UTC).
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
