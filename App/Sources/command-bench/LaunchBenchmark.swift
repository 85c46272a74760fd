// The launch suite: LaunchKit's scheduler, measured against what it could not do better than.
//
//     swift run -c release command-bench launch overhead [n=1000] [seed=...] [width=8] [repetitions=21]
//     swift run -c release command-bench launch makespan [n=50] [seed=...] [width=8] [repetitions=5]
//
// Prints `key=value` lines. See BENCHMARKS.md ("Launch") for recorded runs.

import Dispatch
import LaunchKit
import Synchronization

enum LaunchBenchmark {
    static func run(_ arguments: [String]) throws {
        guard let workload = arguments.first else {
            throw BenchmarkError("usage: command-bench launch <overhead|makespan> [key=value...]")
        }
        let settings = try Settings(Array(arguments.dropFirst()))
        switch workload {
        case "overhead": try blocking { try await overhead(settings) }
        case "makespan": try blocking { try await makespan(settings) }
        default: throw BenchmarkError("unknown launch workload '\(workload)' (overhead, makespan)")
        }
    }

    // MARK: (a) Scheduling overhead

    /// 1,000 no-op commands on a random DAG: time per command through the invoker, against calling
    /// the same closures directly in topological order.
    static func overhead(_ settings: Settings) async throws {
        let count = try settings.int("n", default: 1_000)
        let seed = try settings.uint64("seed", default: 0xC0FF_EE00_1A0C)
        let width = try settings.int("width", default: 8)
        let repetitions = try settings.int("repetitions", default: 21)
        let dag = RandomDAG(count: count, seed: seed, maxDependencies: 3, window: count)
        let calls = Mutex(0)
        let bodies: [@Sendable (LaunchContext) async throws -> Void] = (0..<count).map { _ in
            { _ in calls.withLock { $0 += 1 } }
        }
        let commands = (0..<count).map { index in
            LaunchCommand(dag.id(index), dependsOn: dag.dependencies[index].map(dag.id), execute: bodies[index])
        }
        let context = LaunchContext()
        let clock = ContinuousClock()

        var validate: [Duration] = []
        var launch: [Duration] = []
        var direct: [Duration] = []
        for _ in 0..<repetitions {
            // Construction validates the graph (duplicates, missing, cycle) and builds the state machine.
            var invoker: AppInvoker?
            validate.append(clock.measure { invoker = AppInvoker(commands: commands, maxConcurrency: width) })
            let start = clock.now
            let report = try await invoker!.run()
            launch.append(start.duration(to: clock.now))
            guard report.entries.allSatisfy({ $0.outcome == .succeeded }) else {
                throw BenchmarkError("overhead: a command did not succeed")
            }

            // The baseline: the same closures, called one after the other in topological order.
            let baselineStart = clock.now
            for index in dag.topologicalOrder { try await bodies[index](context) }
            direct.append(baselineStart.duration(to: clock.now))
        }
        guard calls.withLock({ $0 }) == 2 * count * repetitions else {
            throw BenchmarkError("overhead: expected every closure to run once per launch and once per baseline")
        }

        let launchPer = nanoseconds(median(launch)) / Double(count)
        let directPer = nanoseconds(median(direct)) / Double(count)
        let validatePer = nanoseconds(median(validate)) / Double(count)
        print("workload=launch.overhead")
        print("commands=\(count)")
        print("edges=\(dag.edgeCount)")
        print("seed=\(seed)")
        print("width=\(width)")
        print("repetitions=\(repetitions)")
        print("validate_ns_per_command=\(format(validatePer))")
        print("launch_ns_per_command=\(format(launchPer))")
        print("direct_ns_per_command=\(format(directPer))")
        print("overhead_ns_per_command=\(format(launchPer - directPer))")
        print("ratio_launch_to_direct=\(format(launchPer / directPer))")
        print("launch_total_ms=\(format(nanoseconds(median(launch)) / 1e6))")
        print("check=pass")
    }

    // MARK: (b) Makespan against the critical path

    /// 50 commands with known sleep durations on a DAG, width 8: the launch's makespan divided by
    /// the critical path (the longest chain of durations: no schedule can be shorter).
    static func makespan(_ settings: Settings) async throws {
        let count = try settings.int("n", default: 50)
        let seed = try settings.uint64("seed", default: 0x5EED_0050)
        let width = try settings.int("width", default: 8)
        let repetitions = try settings.int("repetitions", default: 5)
        let target = 1.10
        // Dependencies within the previous 8 commands keep the graph deep (a long critical path)
        // and at most a few commands wide.
        let dag = RandomDAG(count: count, seed: seed, maxDependencies: 2, window: 8)
        var generator = SplitMix64(seed: seed ^ 0xD0D0)
        let durations = (0..<count).map { _ in Duration.milliseconds(Int.random(in: 10...40, using: &generator)) }
        let criticalPath = dag.longestPath(durations)
        let totalWork = durations.reduce(Duration.zero, +)
        let simulated = dag.listSchedule(durations, width: width)
        let commands = (0..<count).map { index in
            LaunchCommand(dag.id(index), dependsOn: dag.dependencies[index].map(dag.id)) { _ in
                try await Task.sleep(for: durations[index])
            }
        }

        let clock = ContinuousClock()
        var makespans: [Duration] = []
        var reportCriticalPath: [Duration] = []
        for _ in 0..<repetitions {
            let invoker = AppInvoker(commands: commands, maxConcurrency: width)
            let start = clock.now
            let report = try await invoker.run()
            makespans.append(start.duration(to: clock.now))
            reportCriticalPath.append(report.criticalPathDuration)
            guard report.entries.allSatisfy({ $0.outcome == .succeeded }) else {
                throw BenchmarkError("makespan: a command did not succeed")
            }
        }

        let makespan = median(makespans)
        let ratio = nanoseconds(makespan) / nanoseconds(criticalPath)
        print("workload=launch.makespan")
        print("commands=\(count)")
        print("edges=\(dag.edgeCount)")
        print("seed=\(seed)")
        print("width=\(width)")
        print("repetitions=\(repetitions)")
        print("total_work_ms=\(format(nanoseconds(totalWork) / 1e6))")
        print("critical_path_ms=\(format(nanoseconds(criticalPath) / 1e6))")
        print("width_bound_ms=\(format(nanoseconds(max(criticalPath, totalWork / width)) / 1e6))")
        print("simulated_list_schedule_ms=\(format(nanoseconds(simulated) / 1e6))")
        print("makespan_ms=\(format(nanoseconds(makespan) / 1e6))")
        print("report_critical_path_ms=\(format(nanoseconds(median(reportCriticalPath)) / 1e6))")
        print("ratio_makespan_to_critical_path=\(format(ratio))")
        print("target=\(format(target))")
        print("target_met=\(ratio <= target)")
        print("check=pass")
    }

    // MARK: Helpers

    /// Runs async work from the synchronous suite entry point. The benchmarks never touch the main
    /// actor, so parking the main thread here cannot deadlock.
    private static func blocking(_ body: @escaping @Sendable () async throws -> Void) throws {
        let outcome = Mutex<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await body()
                outcome.withLock { $0 = .some(nil) }
            } catch {
                outcome.withLock { $0 = .some(error) }
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.withLock({ $0 }) ?? nil { throw error }
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    private static func median(_ values: [Duration]) -> Duration {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 1_000).rounded() / 1_000
        return "\(scaled)"
    }

    /// `key=value` arguments.
    struct Settings {
        private var values: [String: String] = [:]

        init(_ arguments: [String]) throws {
            for argument in arguments {
                let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw BenchmarkError("expected key=value, got '\(argument)'")
                }
                values[parts[0]] = parts[1]
            }
        }

        func int(_ key: String, default value: Int) throws -> Int {
            guard let text = values[key] else { return value }
            guard let number = Int(text), number > 0 else {
                throw BenchmarkError("\(key) must be a positive integer, got '\(text)'")
            }
            return number
        }

        func uint64(_ key: String, default value: UInt64) throws -> UInt64 {
            guard let text = values[key] else { return value }
            guard let number = UInt64(text) else {
                throw BenchmarkError("\(key) must be an unsigned integer, got '\(text)'")
            }
            return number
        }
    }

    /// A random DAG: each command depends on up to `maxDependencies` of the `window` commands declared
    /// just before it, so index order is a topological order.
    struct RandomDAG {
        let dependencies: [[Int]]
        let topologicalOrder: [Int]

        init(count: Int, seed: UInt64, maxDependencies: Int, window: Int) {
            var generator = SplitMix64(seed: seed)
            dependencies = (0..<count).map { index in
                let candidates = Array(max(0, index - window)..<index).shuffled(using: &generator)
                return Array(candidates.prefix(Int.random(in: 0...maxDependencies, using: &generator))).sorted()
            }
            topologicalOrder = Array(0..<count)
        }

        var edgeCount: Int { dependencies.reduce(0) { $0 + $1.count } }

        func id(_ index: Int) -> LaunchID { LaunchID("c\(index)") }

        /// The longest chain of durations.
        func longestPath(_ durations: [Duration]) -> Duration {
            var finish: [Duration] = []
            for index in topologicalOrder {
                let start = dependencies[index].map { finish[$0] }.max() ?? .zero
                finish.append(start + durations[index])
            }
            return finish.max() ?? .zero
        }

        /// The makespan of the invoker's policy with zero overhead: at most `width` at once, ready
        /// commands started earliest declared first.
        func listSchedule(_ durations: [Duration], width: Int) -> Duration {
            var finish = Array(repeating: Duration?.none, count: durations.count)
            var running: [(end: Duration, index: Int)] = []
            var started = Array(repeating: false, count: durations.count)
            var now = Duration.zero
            var done = 0
            while done < durations.count {
                for index in topologicalOrder where !started[index] && running.count < width {
                    if dependencies[index].allSatisfy({ finish[$0].map { $0 <= now } ?? false }) {
                        started[index] = true
                        running.append((now + durations[index], index))
                    }
                }
                running.sort { $0.end < $1.end || ($0.end == $1.end && $0.index < $1.index) }
                let next = running.removeFirst()
                now = next.end
                finish[next.index] = next.end
                done += 1
            }
            return now
        }
    }

    /// SplitMix64: a tiny seeded PRNG, so the random DAGs are the same on every run.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
