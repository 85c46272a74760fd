#if ServiceLifecycleIntegration
/// When a ServiceLifecycle `Service` counts as ready for the launch commands that depend on it.
///
/// ServiceLifecycle has no readiness: `run()` starts and keeps running. A launch needs one, so that
/// the migrations wait until the database client can serve them.
///
/// ```swift
/// LaunchService("database", running: client, readiness: .after { try await client.ping() })
/// ```
public struct ServiceReadiness: Sendable {
    let probe: (@Sendable () async throws -> Void)?

    /// Ready as soon as the service's `run()` has been started.
    public static var whenStarted: ServiceReadiness { ServiceReadiness(probe: nil) }

    /// Ready once `probe` returns, run beside the service; the service fails if `probe` throws.
    ///
    /// - Parameter probe: Waits until the service can serve (a query, a connection), or throws.
    /// - Returns: The readiness.
    public static func after(_ probe: @escaping @Sendable () async throws -> Void) -> ServiceReadiness {
        ServiceReadiness(probe: probe)
    }
}
#endif
