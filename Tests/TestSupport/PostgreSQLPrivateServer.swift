import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of one test's own (`Scripts/postgres.sh` with a folder and port of its own),
/// for what would disturb the tests sharing `COMMANDKIT_POSTGRES_URL`'s server: a restart, a crash.
public struct PostgreSQLPrivateServer: Sendable {
    /// The server's URL (its test database).
    public let url: String
    private let environment: [String: String]

    /// The script that starts, restarts and stops test servers (this file is in Tests/TestSupport/).
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/postgres.sh").path

    /// Starts a server in a temporary folder, on a port from 55000 to 59999.
    public init() async throws {
        let port = Int.random(in: 55000...59999)
        environment = [
            "COMMANDKIT_POSTGRES_DIR": FileManager.default.temporaryDirectory
                .appendingPathComponent("commandkit-postgres-\(UUID().uuidString.prefix(8))").path,
            "COMMANDKIT_POSTGRES_PORT": String(port),
        ]
        url = try await Self.run(["start"], environment: environment).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts a server, runs `body` with it, and stops it whatever `body` did.
    public static func with<Result>(_ body: (PostgreSQLPrivateServer) async throws -> Result) async throws -> Result {
        let server = try await PostgreSQLPrivateServer()
        let result: Result
        do {
            result = try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        return result
    }

    /// Restarts the server fast: every session ends, and connections are refused until it is up.
    public func restart() async throws {
        _ = try await Self.run(["restart"], environment: environment)
    }

    /// Kills the server (every server process quits at once: what it had not written to disk is
    /// lost, as in a crash) and starts it again, which recovers from its log.
    public func crash() async throws {
        _ = try await Self.run(["crash"], environment: environment)
    }

    /// Stops the server and removes its folder.
    public func stop() async {
        _ = try? await Self.run(["stop"], environment: environment)
    }

    /// Runs the script with `posix_spawn`, every descriptor above standard error closed in it,
    /// its output through a file. Not a Foundation `Process`: the server the script starts lives
    /// on with what it inherits, and would hold the socket by which `Process` learns that a child
    /// ended (its own, or another test's: `closeInheritedDescriptors(in:)`).
    private static func run(_ arguments: [String], environment: [String: String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-sh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeInheritedDescriptors(in: &actions)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        var cVariables = variables.map { strdup($0) } + [nil]
        defer { cVariables.forEach { free($0) } }
        var cArguments = (["/bin/bash", script] + arguments).map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, &cArguments, &cVariables)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        let exit = try await ChildExit(of: pid, timeout: .seconds(120))
        guard exit == ChildExit(status: 0, wasSignaled: false, timedOut: false) else {
            throw SchemaError(description: "Scripts/postgres.sh \(arguments.joined(separator: " ")): \(exit)")
        }
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}
