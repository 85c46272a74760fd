import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Unix signals into an async sequence, through Dispatch signal sources.
///
/// Registering a source is asynchronous, so ``start(_:)`` waits until every source is registered:
/// a signal sent after it returns is never missed. On Darwin the signal's default action is set to
/// "ignore" while listening (kqueue sees ignored signals); on Linux Dispatch installs its own handler,
/// which routes the signal to its `signalfd`. Not `Sendable`: it lives in the one call that listens.
final class SignalListener {
    let signals: AsyncStream<LaunchSignal>
    private let continuation: AsyncStream<LaunchSignal>.Continuation
    private var sources: [(LaunchSignal, any DispatchSourceSignal)] = []

    private init() {
        (signals, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8))
    }

    /// Installs handlers for the signals and returns once they are all registered.
    static func start(_ signals: [LaunchSignal]) async -> SignalListener {
        let listener = SignalListener()
        let continuation = listener.continuation
        for signal in Set(signals).sorted(by: { $0.rawValue < $1.rawValue }) {
            #if canImport(Darwin)
            _ = Darwin.signal(signal.rawValue, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
            source.setEventHandler { continuation.yield(signal) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            listener.sources.append((signal, source))
        }
        return listener
    }

    /// Stops listening. On Darwin the signals' default actions come back; on Linux Dispatch keeps its
    /// handler, so a later signal stays pending rather than killing the process.
    func stop() {
        for (signal, source) in sources {
            source.cancel()
            #if canImport(Darwin)
            _ = Darwin.signal(signal.rawValue, SIG_DFL)
            #else
            _ = signal
            #endif
        }
        sources.removeAll()
        continuation.finish()
    }

    deinit {
        stop()
    }
}
