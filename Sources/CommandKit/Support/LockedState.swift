#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A value guarded by a pthread mutex: the package's one lock that ThreadSanitizer can see.
///
/// Internal: the test targets that need it reach it with `@testable import CommandKit`, so every
/// target shares this one lock rather than keep copies (CommandKit declares nothing `package`).
///
/// Why not `Synchronization.Mutex`: on Linux (Swift 6.3) it locks with a futex inside the
/// uninstrumented runtime, so ThreadSanitizer sees no synchronization and reports every guarded
/// access as a race, hiding real ones. ThreadSanitizer intercepts pthread calls, so with this lock
/// `swift test --sanitize=thread` reports only real races.
final class LockedState<State: Sendable>: @unchecked Sendable {
    // Why `@unchecked Sendable` is safe: `state` is read and written only inside `withLock`,
    // between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, which is allocated once,
    // never moved, and destroyed only in `deinit` (no other reference exists then). `State` is
    // `Sendable`, so values leaving the lock are safe to use from any thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ initialState: State) {
        state = initialState
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state. `body` must not call `withLock` on the same
    /// lock (it is not recursive) and must not suspend (it is synchronous).
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
