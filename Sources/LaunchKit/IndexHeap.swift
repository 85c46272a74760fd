/// A binary min-heap of command indices: the ready queue, earliest declared first.
struct IndexHeap: Sendable {
    private var storage: [Int] = []

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }

    /// - Complexity: O(log n).
    mutating func insert(_ value: Int) {
        storage.append(value)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    /// - Complexity: O(log n).
    mutating func popMin() -> Int? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        let minimum = storage[0]
        storage[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < storage.count && storage[left] < storage[smallest] { smallest = left }
            if right < storage.count && storage[right] < storage[smallest] { smallest = right }
            if smallest == parent { break }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
        return minimum
    }
}
