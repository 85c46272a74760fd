/// The undo suite (owned by its module's issue; this file is replaced when it lands).
enum UndoBenchmark {
    static func run(_ arguments: [String]) throws {
        throw BenchmarkError("the undo suite is not built yet")
    }
}
