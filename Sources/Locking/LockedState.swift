#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A value guarded by a pthread mutex: the package's one lock.
///
/// The lock policy (ARCHITECTURE.md, "Locks"): every module of the package that guards shared
/// state with a lock uses this one, never `Synchronization.Mutex`. It lives in `Locking`, a target
/// with no product: CommandKit, LaunchKit and the app depend on it, and no public API shows it.
///
/// Why not `Synchronization.Mutex`: on Linux (Swift 6.3) it locks with a futex inside the
/// uninstrumented runtime, so ThreadSanitizer sees no synchronization and reports every guarded
/// access as a race (checked: four threads incrementing one `Mutex<Int>` give "Swift access race"),
/// which would hide real ones and stop `Scripts/sanitize.sh thread`. ThreadSanitizer intercepts
/// pthread calls, so with this lock it reports only real races.
public final class LockedState<State: Sendable>: @unchecked Sendable {
    // Why `@unchecked Sendable` is safe: `state` is read and written only inside `withLock`,
    // between `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, which is allocated once,
    // never moved, and destroyed only in `deinit` (no other reference exists then). `State` is
    // `Sendable`, so values leaving the lock are safe to use from any thread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates the lock around an initial state.
    ///
    /// - Parameter initialState: The state the lock guards.
    public init(_ initialState: State) {
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
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
