extension Invocation: Command {
    /// Invokes the method, discarding its result, so an invocation runs wherever a ``Command``
    /// does (an ``Invoker``, a ``CompositeCommand``).
    ///
    /// - Throws: Whatever ``invoke()`` throws.
    public func execute() throws {
        _ = try invoke()
    }
}
