import AlbumLibrary
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal UI's costs, measured through tmux as a user sees them: the `albums` UI runs in a
/// 120×40 tmux pane, keys are sent with `send-keys`, and the screen is polled with
/// `capture-pane` until it shows the result (the polling adds a few milliseconds to each figure).
///
/// - `launch`: from starting `albums` to its first complete screen.
/// - `delete + undo`: from sending `d` to the screen showing the undo done after `u`, with the
///   album in the middle of the library current (the worst place for position look-ups).
struct TerminalUIBenchmark {
    /// The two figures for one library, medians of the runs.
    struct Figures {
        var launchSeconds: Double
        var deleteUndoSeconds: Double
    }

    let binary: String
    let repeats: Int
    private let socket = "command-bench-\(UUID().uuidString.prefix(8))"
    private let name = "bench"

    /// tmux is installed.
    static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    init(binary: String, repeats: Int) {
        self.binary = binary
        self.repeats = repeats
    }

    /// Measures one library: one untimed launch (warms the page cache), then `repeats` timed
    /// launches, and `repeats` delete + undo in the last one.
    ///
    /// - Parameters:
    ///   - path: The library file.
    ///   - count: How many albums it holds (the screen must say "of count").
    func measure(path: String, count: Int) throws -> Figures {
        defer { _ = try? tmux(["kill-server"]) }
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", name, "sleep 600"])
        try tmux(["set-option", "-g", "remain-on-exit", "on"])
        let shown = "of \(count)"
        var launches: [Double] = []
        for run in 0...repeats {
            let elapsed = try launch(path: path) { $0.contains(shown) && $0.contains("[q] Quit") }
            if run > 0 { launches.append(elapsed) }
            if run < repeats { try quit() }
        }
        var changes: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<repeats {
            let elapsed = try clock.measure {
                try tmux(["send-keys", "-t", name, "d"])
                try waitForScreen("the deletion") { $0.contains("Deleted “") }
                try tmux(["send-keys", "-t", name, "u"])
                try waitForScreen("the undo") { $0.contains("Undid Delete") && $0.contains(shown) }
            }
            changes.append(BenchmarkMath.seconds(elapsed))
        }
        try quit()
        return Figures(launchSeconds: BenchmarkMath.median(launches), deleteUndoSeconds: BenchmarkMath.median(changes))
    }

    /// What following other processes costs (issue 12): the UI's CPU while idle, and how long a
    /// change committed by another `albums` process takes to reach the UI's toolbar.
    struct LiveFigures {
        /// The UI's user + system CPU time over an idle interval, as a percentage of one core.
        var idleCPUPercent: Double
        /// From the other process's exit to the toolbar naming its step: median and maximum.
        var followMedianSeconds: Double
        var followMaxSeconds: Double
    }

    /// Measures ``LiveFigures`` on one library: the UI idles for `idleSeconds` (its CPU ticks read
    /// from `/proc`), then `repeats` times another process adds an album and the screen is polled
    /// until the toolbar shows "Undo Add …" for it.
    func measureLive(path: String, count: Int, idleSeconds: Double) throws -> LiveFigures {
        defer { _ = try? tmux(["kill-server"]) }
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", name, "sleep 600"])
        try tmux(["set-option", "-g", "remain-on-exit", "on"])
        _ = try launch(path: path) { $0.contains("of \(count)") && $0.contains("[q] Quit") }
        // `env` executes albums in place: the pane's process is the UI.
        let pid = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        usleep(500_000)
        let ticksBefore = try Self.cpuTicks(pid: pid)
        let clock = ContinuousClock()
        let started = clock.now
        usleep(UInt32(idleSeconds * 1_000_000))
        let ticksAfter = try Self.cpuTicks(pid: pid)
        let wall = BenchmarkMath.seconds(clock.now - started)
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        let idle = Double(ticksAfter - ticksBefore) / hertz / wall * 100
        var follows: [Double] = []
        for run in 0..<repeats {
            let title = "Live \(run)"
            _ = try AlbumsBenchmark.timeProcess(binary, ["--db", path, "add", "--title", title, "--artist", "Bench"])
            let elapsed = try clock.measure {
                try waitForScreen("the other process's add") { $0.contains("Undo Add “\(title)”") }
            }
            follows.append(BenchmarkMath.seconds(elapsed))
        }
        try quit()
        for _ in 0..<repeats {
            _ = try AlbumsBenchmark.timeProcess(binary, ["--db", path, "undo"])
        }
        return LiveFigures(
            idleCPUPercent: idle, followMedianSeconds: BenchmarkMath.median(follows),
            followMaxSeconds: follows.max() ?? 0)
    }

    /// utime + stime of a process, in clock ticks (`/proc/<pid>/stat` fields 14 and 15).
    private static func cpuTicks(pid: String) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
        guard let close = stat.lastIndex(of: ")") else { throw BenchmarkError("cannot read /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw BenchmarkError("cannot read the CPU times in /proc/\(pid)/stat")
        }
        return user + system
    }

    /// Starts the UI in the pane and returns the seconds until `ready` holds for its screen.
    private func launch(path: String, ready: (String) -> Bool) throws -> Double {
        let command = "env LANG=C.UTF-8 TERM=xterm-256color '\(binary)' --db '\(path)'"
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            try tmux(["respawn-pane", "-k", "-t", name, command])
            try waitForScreen("the first screen", ready)
        }
        return BenchmarkMath.seconds(elapsed)
    }

    /// Quits the UI and waits for its pane to die and its screen to be gone.
    private func quit() throws {
        try tmux(["send-keys", "-t", name, "q"])
        for _ in 0..<10_000 {
            let dead = try tmux(["display-message", "-p", "-t", name, "#{pane_dead}"]).output
            if dead.hasPrefix("1") { return }
            usleep(1_000)
        }
        throw BenchmarkError("the albums UI did not quit")
    }

    /// Polls the screen until `condition` holds (30 seconds at most).
    private func waitForScreen(_ what: String, _ condition: (String) -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try tmux(["capture-pane", "-p", "-t", name]).output
            if condition(last) { return }
            usleep(1_000)
        }
        throw BenchmarkError("timed out waiting for \(what); screen:\n\(last)")
    }

    /// Runs a tmux client and waits for it. Spawned directly, output through a file: the tmux
    /// server inherits the client's descriptors, so a pipe would never reach end of file.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bench-tmux-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["LANG"] = "C.UTF-8"
        let argv = ["tmux", "-u", "-L", socket] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw BenchmarkError("cannot start tmux (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, output)
    }
}

@available(*, unavailable, message: "A benchmark run drives one tmux server from one thread.")
extension TerminalUIBenchmark: Sendable {}
