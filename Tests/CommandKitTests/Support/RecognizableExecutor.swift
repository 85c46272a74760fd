import Dispatch

/// A serial executor whose jobs run on a dispatch queue that code can recognise, so a test can ask
/// "am I running on this actor?" without crashing when the answer is no (unlike
/// `assertIsolated`). `Thread.isMainThread` cannot serve: under `swift test` on Linux the main
/// actor's jobs do not run on the main thread.
final class RecognizableExecutor: SerialExecutor {
    private static let key = DispatchSpecificKey<ObjectIdentifier>()
    private let queue = DispatchQueue(label: "CommandKitTests.RecognizableExecutor")

    init() {
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this executor.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// An actor running on a ``RecognizableExecutor``: the "caller" in isolation tests.
actor RecognizableActor {
    let executor = RecognizableExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

}
