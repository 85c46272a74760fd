import Dispatch
import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Unix signals into an async sequence, through Dispatch signal sources, and gives the signals
/// back as they were once it stops.
///
/// Registering a source is asynchronous, so ``start(_:)`` waits until every source is registered:
/// a signal sent after it returns is never missed.
///
/// What listening changes, and what ``stop()`` puts back:
/// - On Darwin the signal's action is set to "ignore" while listening (kqueue still sees ignored
///   signals, and the default action must not kill the process first).
/// - On Linux, swift-corelibs-libdispatch reads signals from a `signalfd`, which only sees a signal
///   that every thread blocks. Its own threads (the Swift concurrency pool among them) block all
///   signals from the moment they start, listening or not. For a thread that does not block the
///   signal (the main thread parked by `dispatch_main` in `sigsuspend`, for one), Dispatch installs a
///   handler, once per process and signal, that forwards the signal to its event thread. Dispatch
///   never removes that handler: once the sources were cancelled, a later signal was forwarded to
///   nobody and stayed pending for good, so a second SIGTERM no longer killed the process.
///
/// ``stop()`` waits until Dispatch has cancelled the sources (their `signalfd`s closed), then restores
/// each signal's previous disposition (`sigaction`: handler, flags and handler mask), the one it had
/// when the first of the overlapping listeners started. On the way it sets the signal to "ignore" for
/// an instant, which discards a signal left pending for Dispatch's event thread: otherwise the next
/// listener would read it as a fresh shutdown request. Dispatch does not install its handler again
/// for a signal it has seen, so on Linux a later listener puts back the handler Dispatch installed
/// the first time (kept in ``SignalDispositions``).
///
/// No thread's signal mask is changed, so none needs restoring: Dispatch's handler blocks signals on
/// the thread it runs on only until it returns (the kernel restores the mask then). After ``stop()``
/// a signal goes, as before listening, to a thread that does not block it; if every thread blocks
/// it, it stays pending, as it would have without LaunchKit.
///
/// Not guaranteed: a signal that arrives during ``stop()`` itself (after the sources are cancelled,
/// before the disposition is back) is discarded; a disposition other code sets while LaunchKit listens
/// is overwritten by the restore. Not `Sendable`: it lives in the one call that listens.
final class SignalListener {
    let signals: AsyncStream<LaunchSignal>
    private let continuation: AsyncStream<LaunchSignal>.Continuation
    private var sources: [any DispatchSourceSignal] = []
    /// The signals whose disposition this listener holds (claimed before its source exists).
    private var claimed: [Int32] = []

    private init() {
        (signals, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(8))
    }

    /// Installs handlers for the signals and returns once they are all registered.
    static func start(_ signals: [LaunchSignal]) async -> SignalListener {
        let listener = SignalListener()
        let continuation = listener.continuation
        for signal in Set(signals).sorted(by: { $0.rawValue < $1.rawValue }) {
            SignalDispositions.claim(signal.rawValue)
            listener.claimed.append(signal.rawValue)
            let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
            source.setEventHandler { continuation.yield(signal) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            SignalDispositions.registered(signal.rawValue)
            listener.sources.append(source)
        }
        return listener
    }

    /// Stops listening: cancels the sources, waits until Dispatch has let go of the signals, then
    /// restores the dispositions the signals had before (see the type's discussion).
    func stop() async {
        let sources = self.sources
        self.sources.removeAll()
        for source in sources {
            await withCheckedContinuation { (cancelled: CheckedContinuation<Void, Never>) in
                source.setCancelHandler { cancelled.resume() }
                source.cancel()
            }
        }
        releaseClaims()
        continuation.finish()
    }

    private func releaseClaims() {
        for signal in claimed { SignalDispositions.release(signal) }
        claimed.removeAll()
    }

    deinit {
        // Reached with sources only if stop() was never awaited: restore without waiting for Dispatch.
        for source in sources { source.cancel() }
        releaseClaims()
        continuation.finish()
    }
}

/// The process-wide record of the signal dispositions LaunchKit changed, shared by every listener.
///
/// Dispositions belong to the process, not to a listener: overlapping listeners of one signal share
/// a claim, and the first one's saved disposition comes back when the last one releases it.
enum SignalDispositions {
    private struct Claim {
        var count: Int
        var previous: sigaction
    }

    private struct State {
        var claims: [Int32: Claim] = [:]
        /// Linux: the handler Dispatch installed when it first saw each signal (it never installs it again).
        var dispatchActions: [Int32: sigaction] = [:]
    }

    private static let state = LockedState(State())

    /// Records the signal's current disposition if nobody listens to it yet, and prepares it for a
    /// Dispatch signal source.
    static func claim(_ number: Int32) {
        state.withLock { state in
            if state.claims[number] != nil {
                state.claims[number]!.count += 1
                return
            }
            var previous = sigaction()
            _ = sigaction(number, nil, &previous)
            state.claims[number] = Claim(count: 1, previous: previous)
            #if canImport(Darwin)
            _ = signal(number, SIG_IGN)
            #else
            // Dispatch skips its handler for a signal it has seen: put back the one it installed then.
            if var dispatchAction = state.dispatchActions[number] {
                _ = sigaction(number, &dispatchAction, nil)
            }
            #endif
        }
    }

    /// Called once a source for the signal is registered: on Linux, remembers Dispatch's handler.
    static func registered(_ number: Int32) {
        #if !canImport(Darwin)
        state.withLock { state in
            guard state.dispatchActions[number] == nil else { return }
            var current = sigaction()
            _ = sigaction(number, nil, &current)
            state.dispatchActions[number] = current
        }
        #endif
    }

    /// Releases a claim; the last one restores the disposition saved by the first.
    static func release(_ number: Int32) {
        state.withLock { state in
            guard var claim = state.claims[number] else { return }
            claim.count -= 1
            guard claim.count == 0 else {
                state.claims[number] = claim
                return
            }
            state.claims[number] = nil
            // Ignoring a signal discards it where it is pending (POSIX), such as for Dispatch's thread.
            _ = signal(number, SIG_IGN)
            _ = sigaction(number, &claim.previous, nil)
        }
    }
}
