import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives a tmux server on a private socket: start a program in a 120×40 pane, send keys, read the screen.
///
/// Every method that runs tmux is `async` and waits without holding a thread of the test pool (one
/// per core, shared with every suite): the tmux tests call tmux hundreds of times.
final class TmuxSession {
    let socket = "albums-e2e-\(UUID().uuidString.prefix(8))"
    let name = "albums"

    /// How long one tmux client command may take before it is killed (it normally ends in
    /// milliseconds; the bound only catches a hang).
    static let clientTimeout = Patience.childProcess

    /// A tmux client still running at ``clientTimeout`` (killed then).
    struct ClientFailure: Error, CustomStringConvertible {
        var arguments: [String]
        var exit: ChildExit

        var description: String { "tmux \(arguments.joined(separator: " ")): \(exit)" }
    }

    /// `albums init` could not make the library a session was to open.
    struct InitFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// tmux is installed, and `/proc` tells a process's children (Linux, where CI runs these).
    static var isAvailable: Bool {
        let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        return tmux.contains { FileManager.default.isExecutableFile(atPath: $0) }
            && FileManager.default.fileExists(atPath: "/proc/self/task")
    }

    /// Runs a tmux client command and returns its exit status and standard output.
    ///
    /// Spawned directly rather than through `Process`: the server that `new-session` forks
    /// inherits the client's descriptors, and `Process` then never sees the client finish.
    /// Output goes through a file for the same reason. Awaited through ``ChildExit`` (a thread of
    /// its own in `waitid`), killed after ``clientTimeout``.
    @discardableResult
    func tmux(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let pid = try spawn(arguments, output: outputPath)
        let exit = try await ChildExit(of: pid, timeout: Self.clientTimeout)
        if exit.timedOut { throw ClientFailure(arguments: arguments, exit: exit) }
        return (exit.shellStatus, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// Starts `tmux -u -L socket arguments` with standard output to `output`; returns its pid.
    private func spawn(_ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The tmux server outlives this client: it must hold none of this process's descriptors.
        closeInheritedDescriptors(in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Start tmux (and so the programs in its panes) with no signal blocked.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["LANG"] = "C.UTF-8"
        let argv = ["tmux", "-u", "-L", socket] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = envp.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return pid
    }

    /// Where the shell around the program writes its exit status.
    let statusPath = FileManager.default.temporaryDirectory.appendingPathComponent(
        "albums-e2e-status-\(UUID().uuidString)"
    ).path

    /// Starts `albums --db path` in a new detached session, under a shell that records its exit status.
    ///
    /// - Parameter term: The `TERM` albums sees (`nil`: unset).
    func start(database: String, term: String? = "xterm-256color", arguments: [String] = []) async throws {
        try? FileManager.default.removeItem(atPath: statusPath)
        // The terminal UI, a reading command, never creates a library at a named path: make it first.
        if !FileManager.default.fileExists(atPath: database) {
            let created = try await AlbumsProcess(database: database).run(["--db", database, "init"])
            guard created.status == 0 else { throw InitFailure(description: "albums init failed: \(created)") }
        }
        let binary = AlbumsProcess.executable.path
        // env's options come before its assignments.
        let environment = term.map { "LANG=C.UTF-8 TERM='\($0)'" } ?? "-u TERM LANG=C.UTF-8"
        let extra = arguments.map { " '\($0)'" }.joined()
        let command = "env \(environment) '\(binary)' --db '\(database)'\(extra); echo $? > '\(statusPath)'"
        // A placeholder pane first, so the pane stays however fast the program ends.
        try await tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", name, "sleep 60"])
        try await tmux(["set-option", "-g", "remain-on-exit", "on"])
        try await tmux(["respawn-pane", "-k", "-t", name, command])
    }

    /// The pid of the albums process (the child of the pane's shell).
    func programPID() async throws -> pid_t? {
        let shell = try await pane("#{pane_pid}")
        return try await poll(every: .milliseconds(50)) {
            let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
            return children.split(separator: " ").first.flatMap { pid_t($0) }
        }
    }

    func send(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", name] + keys)
    }

    /// Everything the pane printed, scrolled-off lines included, wrapped lines joined.
    func transcript() async throws -> String {
        try await tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", name]).output
    }

    /// The screen as text (with escape sequences for attributes when `escapes`).
    func screen(escapes: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : [])).output
    }

    /// Waits until the screen satisfies `condition` (up to ``Patience/condition``: a hang, not
    /// slowness, is what the bound catches) and returns it.
    @discardableResult
    func waitForScreen(
        _ what: String,
        escapes: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) async throws -> String {
        var last = ""
        let shown = try await poll(every: .milliseconds(50)) { () async throws -> String? in
            last = try await screen(escapes: escapes)
            return condition(last) ? last : nil
        }
        if let shown { return shown }
        Issue.record("timed out waiting for \(what); screen:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// The program's pid, its exit status once dead ("" while alive).
    func pane(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", name, format]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Waits for the program to end and returns its exit status ("0"; "143" after SIGTERM).
    func waitUntilExit(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let status = try await poll(every: .milliseconds(50)) { () -> String? in
            guard let text = try? String(contentsOfFile: statusPath, encoding: .utf8), text.hasSuffix("\n") else {
                return nil
            }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let status { return status }
        let screen = (try? await screen()) ?? ""
        Issue.record("the program did not exit; screen:\n\(screen)", sourceLocation: sourceLocation)
        return ""
    }

    /// Tells the tmux server to end (and with it the program in its pane) and removes the status
    /// file; returns without waiting, for a `defer` (which cannot await): the client is reaped in
    /// the background.
    func kill() {
        if let pid = try? spawn(["kill-server"], output: "/dev/null") {
            ChildExit.reapInBackground(pid, timeout: Self.clientTimeout)
        }
        try? FileManager.default.removeItem(atPath: statusPath)
    }
}
