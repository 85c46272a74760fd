/// How many single-character insertions, deletions and substitutions turn one text into another
/// (Levenshtein distance), for "did you mean" suggestions.
enum EditDistance {
    /// The distance between `a` and `b`, or `nil` when it is more than `limit` (found without
    /// finishing the table: a row whose every entry is past the limit ends the count).
    ///
    /// - Complexity: O(*m* × *n*) in the texts' lengths, O(*n*) memory.
    static func between(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, left) in a.enumerated() {
            current[0] = i + 1
            var smallest = current[0]
            for (j, right) in b.enumerated() {
                let substitution = previous[j] + (left == right ? 0 : 1)
                current[j + 1] = min(substitution, previous[j + 1] + 1, current[j] + 1)
                smallest = min(smallest, current[j + 1])
            }
            guard smallest <= limit else { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
