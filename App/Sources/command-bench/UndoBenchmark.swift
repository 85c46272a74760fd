// The undo suite: the workloads of ../shared/bench/WORKLOAD.md on CommandKit's UndoStack.
//
//     swift run -c release command-bench undo <W1|W2|W3|W4> <N>
//
// Prints the WORKLOAD.md lines with peer=commandkit. Commands are value types stored inline
// in the stack (two words: the counter pointer and the amount), built fresh for every push.

import CommandKit

#if canImport(Glibc)
import CMallocInfo
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum UndoBenchmark {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2, let n = Int(arguments[1]), n >= 0 else {
            throw BenchmarkError("usage: command-bench undo <W1|W2|W3|W4> <N>")
        }
        var bench = UndoWorkloads(workload: arguments[0], n: n)
        switch arguments[0] {
        case "W1": try bench.runW1()
        case "W2": try bench.runW2()
        case "W3": try bench.runW3()
        case "W4": try bench.runW4()
        default: throw BenchmarkError("unknown workload \(arguments[0]) (expected W1, W2, W3 or W4)")
        }
    }
}

/// Adds its amount to the shared counter on redo, subtracts it on undo.
private struct AddCommand: UndoCommand {
    let counter: UnsafeMutablePointer<Int>
    let amount: Int

    var text: String { "Add" }

    mutating func redo() { counter.pointee &+= amount }
    mutating func undo() { counter.pointee &-= amount }
}

/// W2's command: same effect, merge ID 1, and merging adds the incoming amount.
private struct MergingAddCommand: UndoCommand {
    let counter: UnsafeMutablePointer<Int>
    var amount: Int

    var text: String { "Add" }
    var mergeID: Int? { 1 }

    mutating func redo() { counter.pointee &+= amount }
    mutating func undo() { counter.pointee &-= amount }

    mutating func merge(with other: Self) -> Bool {
        amount &+= other.amount
        return true
    }
}

private struct UndoWorkloads {
    let workload: String
    let n: Int
    let counter: UnsafeMutablePointer<Int>

    init(workload: String, n: Int) {
        self.workload = workload
        self.n = n
        counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.initialize(to: 0)
    }

    private func amount(_ i: Int) -> Int { i % 10 + 1 }

    private func expectedSum(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let rest = n % 10
        return n / 10 * 55 + rest * (rest + 1) / 2
    }

    private func line(_ text: String) {
        print("peer=commandkit workload=\(workload) n=\(n) \(text)")
    }

    private func phase(_ name: String, _ nanoseconds: Int, _ ops: Int) {
        let perOp = ops > 0 ? Double(nanoseconds) / Double(ops) : 0
        line("phase=\(name) ns_per_op=\(formatted(perOp))")
    }

    private func check(_ at: String, _ expected: Int) {
        guard counter.pointee != expected else { return }
        line("check=FAILED at=\(at) counter=\(counter.pointee) expected=\(expected)")
        exit(2)
    }

    private func finalCheck(_ expected: Int) {
        check("final", expected)
        line("check=ok counter=\(counter.pointee) expected=\(expected)")
    }

    mutating func runW1() throws {
        let stack = UndoStack()
        let heap0 = heapBytes()

        let t0 = now()
        for i in 0..<n {
            try stack.push(AddCommand(counter: counter, amount: amount(i)))
        }
        let t1 = now()
        check("after-push", expectedSum(n))
        if stack.count != n { check("count", -1) }

        let t2 = now()
        for _ in 0..<n { try stack.undo() }
        let t3 = now()
        check("after-undo", 0)

        let t4 = now()
        for _ in 0..<n { try stack.redo() }
        let t5 = now()

        let heap1 = heapBytes()
        phase("push", t1 - t0, n)
        phase("undo", t3 - t2, n)
        phase("redo", t5 - t4, n)
        phase("total", (t1 - t0) + (t3 - t2) + (t5 - t4), 3 * n)
        finalCheck(expectedSum(n))
        if n > 0, let heap0, let heap1 {
            line("heap_bytes_per_entry=\(formatted(Double(heap1 - heap0) / Double(n)))")
        }
        withExtendedLifetime(stack) {}
    }

    mutating func runW2() throws {
        let stack = UndoStack()

        let t0 = now()
        for i in 0..<n {
            try stack.push(MergingAddCommand(counter: counter, amount: amount(i)))
        }
        let t1 = now()
        check("after-push", expectedSum(n))
        if stack.count != (n > 0 ? 1 : 0) { check("count", -1) }

        let t2 = now()
        try stack.undo()
        let t3 = now()

        phase("push", t1 - t0, n)
        phase("undo", t3 - t2, 1)
        phase("total", (t1 - t0) + (t3 - t2), n + 1)
        finalCheck(0)
    }

    mutating func runW3() throws {
        let limit = 1000
        let stack = UndoStack(undoLimit: limit)

        let t0 = now()
        for i in 0..<n {
            try stack.push(AddCommand(counter: counter, amount: amount(i)))
        }
        let t1 = now()
        check("after-push", expectedSum(n))

        let kept = min(n, limit)
        var steps = 0
        while stack.canUndo {
            try stack.undo()
            steps += 1
        }
        if steps != kept {
            line("check=FAILED at=undoable-steps counter=\(steps) expected=\(kept)")
            exit(2)
        }

        phase("push", t1 - t0, n)
        phase("total", t1 - t0, n)
        finalCheck(expectedSum(n - kept))
    }

    mutating func runW4() throws {
        let macros = n / 10
        let leaves = macros * 10
        let stack = UndoStack()

        let t0 = now()
        var i = 0
        for _ in 0..<macros {
            stack.beginMacro("")
            for _ in 0..<10 {
                try stack.push(AddCommand(counter: counter, amount: amount(i)))
                i += 1
            }
            try stack.endMacro()
        }
        let t1 = now()
        check("after-push", expectedSum(leaves))
        if stack.count != macros { check("count", -1) }

        let t2 = now()
        for _ in 0..<macros { try stack.undo() }
        let t3 = now()
        check("after-undo", 0)

        let t4 = now()
        for _ in 0..<macros { try stack.redo() }
        let t5 = now()

        phase("push", t1 - t0, leaves)
        phase("undo", t3 - t2, leaves)
        phase("redo", t5 - t4, leaves)
        phase("total", (t1 - t0) + (t3 - t2) + (t5 - t4), 3 * leaves)
        finalCheck(expectedSum(leaves))
    }
}

/// Monotonic nanoseconds.
private func now() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// Live heap bytes (glibc `mallinfo2`: in use plus mmapped), or `nil` where unavailable.
private func heapBytes() -> Int? {
    #if canImport(Glibc)
    let info = mallinfo2()
    return Int(info.uordblks + info.hblkhd)
    #else
    return nil
    #endif
}

/// `x` with exactly three decimals ("%.3f"), without Foundation.
private func formatted(_ x: Double) -> String {
    let thousandths = Int((abs(x) * 1000).rounded())
    let fraction = String(thousandths % 1000)
    let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
    return (x < 0 ? "-" : "") + "\(thousandths / 1000).\(padded)"
}
