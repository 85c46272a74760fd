/// How many single-scalar insertions, deletions and substitutions turn one text into another
/// (Levenshtein distance over Unicode scalars), for "did you mean" suggestions.
enum EditDistance {
    /// The distance between `a` and `b`, or `nil` when it is more than `limit` (found without
    /// finishing the table: a row whose every entry is past the limit ends the count).
    ///
    /// Plain index loops on concrete arrays: a suggestion compares every title of the library.
    ///
    /// - Complexity: O(*m* × *n*) in the texts' lengths, O(*n*) memory.
    static func between(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        let width = b.count + 1
        var previous = [Int](repeating: 0, count: width)
        var current = [Int](repeating: 0, count: width)
        for j in 0..<width { previous[j] = j }
        var i = 0
        while i < a.count {
            current[0] = i + 1
            var smallest = current[0]
            var j = 0
            while j < b.count {
                let substitution = previous[j] + (a[i] == b[j] ? 0 : 1)
                let value = min(substitution, min(previous[j + 1], current[j]) + 1)
                current[j + 1] = value
                if value < smallest { smallest = value }
                j += 1
            }
            guard smallest <= limit else { return nil }
            swap(&previous, &current)
            i += 1
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
