/// The invoker's view of its injected clock: durations since the clock's origin, and sleeping
/// until one.
///
/// Wrapping `any Clock<Duration>` in two closures keeps the instant type out of the invoker, which
/// stays a plain (non-generic) actor.
struct LaunchClock: Sendable {
    /// The time elapsed since the origin.
    let now: @Sendable () -> Duration
    /// Suspends until the given time since the origin; throws if the task is cancelled.
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self = Self.make(clock)
    }

    private init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    private static func make<C: Clock<Duration>>(_ clock: C) -> LaunchClock {
        let origin = clock.now
        return LaunchClock(
            now: { origin.duration(to: clock.now) },
            sleep: { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
        )
    }
}
