// The tree suite: what branches cost an UndoStack, side by side in one run.
//
//     swift run -c release command-bench tree [N] [linear|branching|jump]
//
// With a stack kind, W1 runs once on that kind only (for callgrind's instruction counts).
// - linear vs branching: W1 (push N, undo N, redo N; WORKLOAD.md's command) on UndoStack() and on
//   UndoStack(keepsBranches: true), alternated 3 times, medians; and the heap bytes per entry.
// - jump: a trunk of N steps whose last 5 are undone and replaced by 5 others (two leaves 10 steps
//   apart); 10,000 jumps between the leaves, in a tree of N and in a tree of 10 trunk steps.

import CommandKit

#if canImport(Glibc)
import CMallocInfo
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum TreeBenchmark {
    static func run(_ arguments: [String]) throws {
        let n = arguments.first.flatMap { Int($0) } ?? 1_000_000
        guard n >= 20 else { throw BenchmarkError("usage: command-bench tree [N >= 20] [linear|branching|jump]") }
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { counter.deallocate() }
        // One workload, once: for instruction counts (`valgrind --tool=callgrind`).
        if arguments.count > 1, arguments[1] == "jump" {
            print("suite=tree workload=jump trunk=\(n) ns_per_jump=\(fixed(try jumps(trunk: n, counter)))")
            return
        }
        if arguments.count > 1 {
            let phases = try w1(n, keepsBranches: arguments[1] == "branching", counter)
            print("suite=tree workload=W1 n=\(n) stack=\(arguments[1]) push=\(fixed(phases[0]))")
            return
        }
        var linear: [[Double]] = []
        var branching: [[Double]] = []
        for _ in 0..<3 {
            linear.append(try w1(n, keepsBranches: false, counter))
            branching.append(try w1(n, keepsBranches: true, counter))
        }
        print("suite=tree workload=W1 n=\(n)")
        for (index, phase) in ["push", "undo", "redo", "total", "heap_bytes_per_entry"].enumerated() {
            let off = median(linear.map { $0[index] })
            let on = median(branching.map { $0[index] })
            print("  \(phase) linear=\(fixed(off)) branching=\(fixed(on)) ratio=\(fixed(on / off))")
        }
        let large = try jumps(trunk: n, counter)
        let small = try jumps(trunk: 10, counter)
        print("suite=tree workload=jump crossing=10")
        print(
            "  ns_per_jump_tree_\(n)=\(fixed(large)) ns_per_jump_tree_20=\(fixed(small)) ratio=\(fixed(large / small))")
    }

    /// W1 on one stack: push, undo and redo ns per operation, their total, and heap bytes per entry.
    private static func w1(_ n: Int, keepsBranches: Bool, _ counter: UnsafeMutablePointer<Int>) throws -> [Double] {
        counter.pointee = 0
        let heap0 = heapBytes()
        let stack = UndoStack(keepsBranches: keepsBranches)
        let t0 = now()
        for i in 0..<n { try stack.push(Add(counter: counter, amount: i % 10 + 1)) }
        let t1 = now()
        for _ in 0..<n { try stack.undo() }
        let t2 = now()
        for _ in 0..<n { try stack.redo() }
        let t3 = now()
        let heap1 = heapBytes()
        guard counter.pointee == 55 * (n / 10) + (n % 10) * (n % 10 + 1) / 2, stack.count == n else {
            throw BenchmarkError("tree W1: counter \(counter.pointee) or count \(stack.count) is wrong")
        }
        withExtendedLifetime(stack) {}
        let ops = Double(n)
        return [
            Double(t1 - t0) / ops, Double(t2 - t1) / ops, Double(t3 - t2) / ops, Double(t3 - t0) / (3 * ops),
            Double(heap1 - heap0) / ops,
        ]
    }

    /// Nanoseconds per jump between two leaves 10 steps apart, above a trunk of `trunk` steps.
    private static func jumps(trunk: Int, _ counter: UnsafeMutablePointer<Int>) throws -> Double {
        counter.pointee = 0
        let stack = UndoStack(keepsBranches: true)
        for i in 0..<trunk { try stack.push(Add(counter: counter, amount: i % 10 + 1)) }
        let first = stack.currentNode
        try stack.undo(steps: 5)
        for _ in 0..<5 { try stack.push(Add(counter: counter, amount: 1)) }
        let second = stack.currentNode
        let rounds = 10_000
        let t0 = now()
        for round in 0..<rounds {
            let jump = try stack.jump(to: round % 2 == 0 ? first : second)
            if jump.undone.count != 5 || jump.redone.count != 5 { throw BenchmarkError("tree jump: not 10 steps") }
        }
        let t1 = now()
        return Double(t1 - t0) / Double(rounds)
    }

    private struct Add: UndoCommand {
        let counter: UnsafeMutablePointer<Int>
        let amount: Int
        var text: String { "Add" }
        mutating func redo() { counter.pointee &+= amount }
        mutating func undo() { counter.pointee &-= amount }
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func now() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }

    private static func heapBytes() -> Int {
        #if canImport(Glibc)
        let info = mallinfo2()
        return Int(info.uordblks + info.hblkhd)
        #else
        return 0
        #endif
    }

    /// Three decimals, without Foundation.
    private static func fixed(_ x: Double) -> String {
        let thousandths = Int((abs(x) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return (x < 0 ? "-" : "") + "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count)
            + fraction
    }
}
