import AlbumsApp
import Foundation
import TestSupport
import Testing

/// Runs the built `albums` executable as a separate process, as a user would.
struct AlbumsProcess {
    struct Result: CustomStringConvertible {
        var status: Int32
        var output: String
        var error: String
        /// Whether the run outlived its timeout and was killed.
        var timedOut = false

        var description: String {
            "exit \(status)\(timedOut ? " (killed: timed out)" : "")\nstdout: \(output)\nstderr: \(error)"
        }
    }

    /// The built `albums` binary, next to the test bundle in the build products folder.
    static let executable: URL = {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL?.deletingLastPathComponent() {
            candidates.append(bundle.appendingPathComponent("albums"))
        }
        let arguments0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        candidates.append(arguments0.appendingPathComponent("albums"))
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("albums"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/albums"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? candidates[candidates.count - 1]
    }()

    /// A fresh folder for one test's library; removed by the caller's `defer`.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The deadline of a run that names none: generous, for sanitized builds on a loaded machine.
    static let defaultTimeout: TimeInterval = 300

    let database: String
    var environment: [String: String] = [:]

    /// Runs `albums --db <database> <arguments>`.
    ///
    /// A reading command on a library file not created yet runs `albums --db <database> init`
    /// first (reading commands never create one), so a test may begin with any command; a change
    /// creates the library itself, with its notice. A library on a server (a URL) is the test's
    /// to create: no file is ever at a URL's "path".
    func callAsFunction(_ arguments: String..., input: Data? = nil, timeout: TimeInterval? = nil) async throws -> Result
    {
        let words = ["--db", database] + arguments
        if !database.contains("://"), !FileManager.default.fileExists(atPath: database),
            let request = try? CommandLineParser.parse(["albums"] + words), !request.action.isMutating
        {
            if case .output = request.action {
            } else {
                let created = try await run(["--db", database, "init"], timeout: timeout)
                guard created.status == 0 else { return created }
            }
        }
        return try await run(words, input: input, timeout: timeout)
    }

    /// Runs `albums <arguments>` with no `--db` added.
    ///
    /// A run still going after `timeout` seconds (``defaultTimeout`` when nil) is killed (SIGKILL)
    /// and its result says `timedOut`, so a test of something that could block fails instead of
    /// hanging.
    /// Waits without holding a thread: the test pool has one thread per core, and tests blocked on
    /// child processes starved the suite's other tests (LaunchKit's readiness waits timed out
    /// under ThreadSanitizer).
    func run(
        _ arguments: [String], input: Data? = nil, timeout: TimeInterval? = nil, executable: URL = Self.executable
    ) async throws -> Result {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        let inputURL = folder.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inputURL.path, contents: input ?? Data())
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ALBUMS_DB"] = nil
        environment.merge(self.environment) { $1 }
        process.environment = environment
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let stdin = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        let exit = try await ProcessExit.run(process, timeout: .seconds(timeout ?? Self.defaultTimeout))
        try output.close()
        try error.close()
        try stdin.close()
        return Result(
            status: process.terminationStatus,
            output: try String(contentsOf: outputURL, encoding: .utf8),
            error: try String(contentsOf: errorURL, encoding: .utf8),
            timedOut: exit.timedOut
        )
    }

    /// The library's observable state: its export and its history, as JSON.
    func snapshot() async throws -> String {
        let export = try await self("export")
        let history = try await self("--json", "history")
        return export.output + history.output
    }
}
