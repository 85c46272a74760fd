import Foundation
import TestSupport

/// Runs a built executable of this package as a child process, with a deadline.
///
/// A child still running at the deadline is killed with SIGKILL and reported as hung: a hang is a
/// failure these tests look for, so no test waits forever.
struct ChildProcess {
    struct Result: CustomStringConvertible {
        var status: Int32
        /// Killed by a signal (a crash: SIGSEGV, SIGILL from a trap, SIGABRT), not a normal exit.
        var wasSignaled: Bool
        var timedOut: Bool
        var output: String
        var error: String

        var crashed: Bool { wasSignaled && !timedOut }

        var description: String {
            "exit \(status)\(wasSignaled ? " (signal \(status))" : "")\(timedOut ? " (timed out)" : "")\nstdout: \(output.prefix(2000))\nstderr: \(error.prefix(2000))"
        }
    }

    /// The folder of the built products (next to the test bundle).
    static let productsFolder: URL = {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return candidates.compactMap { $0 }.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("fuzz-stored-commands").path)
        } ?? repositoryRoot.appendingPathComponent("App/.build/debug")
    }()

    /// The repository's root folder: the libraries' package, with the app's in App/ and the fuzz
    /// corpora in Fuzz/ (this file is in App/Tests/ReliabilityTests/).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `product` (a built executable of this package, or an absolute path) with `arguments`.
    static func run(
        _ product: String,
        _ arguments: [String],
        input: Data = Data(),
        environment: [String: String] = [:],
        timeout: TimeInterval = Patience.childProcessSeconds
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reliability-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        let inputURL = folder.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inputURL.path, contents: input)

        let process = Process()
        process.executableURL =
            product.hasPrefix("/") ? URL(fileURLWithPath: product) : productsFolder.appendingPathComponent(product)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["ALBUMS_DB"] = nil
        merged.merge(environment) { $1 }
        process.environment = merged
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let stdin = try FileHandle(forReadingFrom: inputURL)
        defer {
            try? output.close()
            try? error.close()
            try? stdin.close()
        }
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        // Waits without holding a thread: the test pool has one thread per core, and a blocked
        // one starves the suite's other tests (LaunchKit's readiness waits timed out under TSan).
        let timedOut = try await ProcessExit.run(process, timeout: .seconds(timeout)).timedOut
        return Result(
            status: process.terminationStatus,
            wasSignaled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            output: String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self),
            error: String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
        )
    }

    /// A fresh temporary folder; the caller removes it.
    static func makeFolder(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reliability-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
