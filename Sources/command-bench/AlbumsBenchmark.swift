/// The albums suite (owned by its module's issue; this file is replaced when it lands).
enum AlbumsBenchmark {
    static func run(_ arguments: [String]) throws {
        throw BenchmarkError("the albums suite is not built yet")
    }
}
