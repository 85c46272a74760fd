/// The store suite (owned by its module's issue; this file is replaced when it lands).
enum StoreBenchmark {
    static func run(_ arguments: [String]) throws {
        throw BenchmarkError("the store suite is not built yet")
    }
}
