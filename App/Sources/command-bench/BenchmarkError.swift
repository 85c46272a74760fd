/// A benchmark that cannot run as asked (bad arguments, a failed check).
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
