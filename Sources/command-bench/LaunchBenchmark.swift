/// The launch suite (owned by its module's issue; this file is replaced when it lands).
enum LaunchBenchmark {
    static func run(_ arguments: [String]) throws {
        throw BenchmarkError("the launch suite is not built yet")
    }
}
