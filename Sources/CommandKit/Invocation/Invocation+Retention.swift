extension Invocation {
    /// How an invocation holds its target.
    public enum Retention: Hashable, Sendable {
        /// The invocation keeps the target alive.
        case strong
        /// The invocation does not keep the target alive; invoking after the target is gone throws
        /// ``InvocationError/targetDeallocated``.
        case weak
    }

    /// The target reference, strong or weak.
    struct TargetReference {
        private enum Storage {
            case strong(Target)
            case weak(WeakBox)
            case removed
        }

        private struct WeakBox {
            weak var object: Target?
        }

        private var storage: Storage
        let retention: Retention

        init(_ target: Target?, retention: Retention) {
            self.retention = retention
            switch (target, retention) {
            case (nil, _): storage = .removed
            case (let target?, .strong): storage = .strong(target)
            case (let target?, .weak): storage = .weak(WeakBox(object: target))
            }
        }

        var object: Target? {
            switch storage {
            case .strong(let target): target
            case .weak(let box): box.object
            case .removed: nil
            }
        }

        /// Whether the target was removed on purpose (set to `nil`), as opposed to deallocated.
        var wasRemoved: Bool {
            if case .removed = storage { true } else { false }
        }
    }
}
