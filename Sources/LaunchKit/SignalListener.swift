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
/// The signals' default action is replaced by "ignore" while listening, so the process survives to
/// shut down gracefully; ``stop()`` restores the default. Not `Sendable`: it lives in the one call
/// that listens.
final class SignalListener {
    let signals: AsyncStream<LaunchSignal>
    private let continuation: AsyncStream<LaunchSignal>.Continuation
    private var sources: [(LaunchSignal, any DispatchSourceSignal)] = []

    init(_ signals: [LaunchSignal]) {
        (self.signals, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8))
        let continuation = self.continuation
        for signal in Set(signals).sorted(by: { $0.rawValue < $1.rawValue }) {
            SignalDisposition.ignore(signal.rawValue)
            let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
            source.setEventHandler { continuation.yield(signal) }
            source.resume()
            sources.append((signal, source))
        }
    }

    /// Stops listening and restores the signals' default actions.
    func stop() {
        for (signal, source) in sources {
            source.cancel()
            SignalDisposition.restoreDefault(signal.rawValue)
        }
        sources.removeAll()
        continuation.finish()
    }

    deinit {
        stop()
    }
}

/// `signal(2)` calls, kept in one place.
private enum SignalDisposition {
    static func ignore(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    static func restoreDefault(_ number: Int32) {
        _ = signal(number, SIG_DFL)
    }
}
