import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `albums serve --port 0` as a real child process: started, its URL read from the line it
/// prints, stopped with a signal.
final class ServerProcess: @unchecked Sendable {
    // `@unchecked`: every property is a constant; `Process` is read only for its state.
    /// The built `albums`, beside the test bundle.
    static let executable: URL = {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("albums"))
        }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("albums"))
        let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(app.appendingPathComponent(".build/debug/albums"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? candidates[candidates.count - 1]
    }()

    let folder: URL
    let database: String
    let process: Process
    let exit = ProcessExit()
    /// The URL it printed (with `?token=` when it has one).
    let url: String
    let port: Int
    let outputPath: String
    let errorPath: String

    /// Starts a server on a new library in a new folder (or on `database`), and waits until it
    /// prints its URL. With `descriptorLimit`, it runs under `ulimit -n` of that many (soft and
    /// hard, so it cannot raise it).
    init(
        arguments: [String] = [], environment: [String: String] = [:], database: String? = nil,
        descriptorLimit: Int? = nil
    ) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("albums-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.database = database ?? folder.appendingPathComponent("library.sqlite").path
        outputPath = folder.appendingPathComponent("stdout").path
        errorPath = folder.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        // serve, like the terminal UI, opens only a library that exists (`albums init` makes one).
        if !FileManager.default.fileExists(atPath: self.database) {
            try await Self.makeLibrary(at: self.database)
        }
        process = Process()
        let serve = ["--db", self.database, "serve", "--port", "0"] + arguments
        if let descriptorLimit {
            // The shell sets the limit and becomes albums (exec): the same process, the same pid.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", Self.executable.path] + serve
        } else {
            process.executableURL = Self.executable
            process.arguments = serve
        }
        var variables = ProcessInfo.processInfo.environment
        variables["ALBUMS_DB"] = nil
        variables["ALBUMS_AUTHOR"] = "server-user"
        variables.merge(environment) { $1 }
        process.environment = variables
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try exit.start(process, timeout: Patience.childProcess)
        let outputPath = self.outputPath
        let process = self.process
        try await eventually("the server printed its URL") {
            !process.isRunning || Self.printedURL(outputPath) != nil
        }
        guard let url = Self.printedURL(outputPath), let port = Self.port(of: url) else {
            let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw ServerError("albums serve printed no URL; stderr: \(error)")
        }
        self.url = url
        self.port = port
    }

    private static func printedURL(_ path: String) -> String? {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("albums: serving ") }) else {
            return nil
        }
        return String(line.dropFirst("albums: serving ".count))
    }

    private static func port(of url: String) -> Int? {
        guard let components = URLComponents(string: url) else { return nil }
        return components.port
    }

    /// The token in the URL it printed, if any.
    var token: String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == "token" }?.value
    }

    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits for the exit; returns the exit status (128 + signal if killed).
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        return await waitForExit()
    }

    /// Waits for the exit (killed after ``Patience/childProcess``); returns the exit status.
    func waitForExit() async -> Int32 {
        await exit.wait()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// `albums init PATH`: a library with the five default albums.
    private static func makeLibrary(at path: String) async throws {
        let made = Process()
        made.executableURL = executable
        made.arguments = ["init", path]
        var variables = ProcessInfo.processInfo.environment
        variables["ALBUMS_DB"] = nil
        made.environment = variables
        made.standardOutput = FileHandle.nullDevice
        made.standardError = FileHandle.nullDevice
        _ = try await ProcessExit.run(made, timeout: Patience.childProcess)
        guard made.terminationStatus == 0 else {
            throw ServerError("albums init \(path) exited \(made.terminationStatus)")
        }
    }

    /// Runs the CLI on the same library (`albums --db … ARGS`) and returns its exit status and output.
    func cli(_ arguments: String...) async throws -> (status: Int32, output: String) {
        try await cli(arguments)
    }

    /// Runs the CLI on the same library (`albums --db … ARGS`) and returns its exit status and output.
    func cli(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await Self.run(["--db", database] + arguments, in: folder)
    }

    /// Runs `albums ARGS` (as `cli-user`, `ALBUMS_DB` unset) and returns its exit status and its
    /// standard output and error, together.
    static func run(_ arguments: [String], in folder: URL? = nil) async throws -> (status: Int32, output: String) {
        let cli = Process()
        cli.executableURL = Self.executable
        cli.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        variables["ALBUMS_DB"] = nil
        variables["ALBUMS_AUTHOR"] = "cli-user"
        cli.environment = variables
        let outputURL = (folder ?? FileManager.default.temporaryDirectory).appendingPathComponent(
            "cli-\(UUID().uuidString)")
        defer { if folder == nil { try? FileManager.default.removeItem(at: outputURL) } }
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        cli.standardOutput = FileHandle(forWritingAtPath: outputURL.path)
        cli.standardError = FileHandle(forWritingAtPath: outputURL.path)
        _ = try await ProcessExit.run(cli, timeout: Patience.childProcess)
        return (cli.terminationStatus, (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "")
    }

    /// Stops the server if it still runs and removes its folder.
    func finish() async {
        _ = await stop(signal: SIGKILL)
        try? FileManager.default.removeItem(at: folder)
    }
}

struct ServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
