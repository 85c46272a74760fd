import AlbumLibrary
import CommandStore
import Foundation
import LaunchKit
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `albums` program: parses the command line, opens the library, runs one command.
///
/// `main.swift` only calls ``run(arguments:environment:console:)`` and exits with its result,
/// so everything here is reachable from tests.
public enum AlbumsApp: Sendable {
    /// The exit status of a command that failed (a usage error exits with ``UsageError/exitCode``).
    public static let failureExitCode: Int32 = 1

    /// Runs the program.
    ///
    /// - Parameters:
    ///   - arguments: The process arguments, the program name first.
    ///   - environment: The process environment (`ALBUMS_DB`, `XDG_DATA_HOME`, `HOME`, `COLUMNS`).
    ///   - console: Where to write and read.
    /// - Returns: The exit status: 0 on success, 1 when the command failed, 2 for a usage error.
    @MainActor
    public static func run(
        arguments: [String],
        environment: [String: String] = AlbumsApp.environment(),
        console: Console = .standard
    ) async -> Int32 {
        let request: CommandLineRequest
        do {
            request = try CommandLineParser.parse(arguments)
        } catch {
            console.writeError(error.description + "\n")
            return UsageError.exitCode
        }
        if case .output(let text) = request.action {
            console.write(text.hasSuffix("\n") ? text : text + "\n")
            return 0
        }
        let path = LibraryFile.defaultPath(explicitPath: request.options.databasePath, environment: environment)
        // A mistyped --db would otherwise make a new library without a word.
        let isNew = access(path, F_OK) != 0
        let interactive = request.action == .interactive && console.outputIsTerminal && console.inputIsTerminal
        let state: AlbumsLaunch.State
        let report: LaunchReport
        do {
            (state, report) = try await AlbumsLaunch.run(
                path: path,
                interactive: interactive,
                options: LaunchOptions(arguments: arguments, environment: environment)
            )
        } catch {
            if request.options.launchReport, let report = error.report {
                console.writeError(report.table() + "\n")
            }
            console.writeError("albums: \(describe(error.error))\n")
            return failureExitCode
        }
        // The report follows the command's own output, on stderr, whatever the command's fate.
        defer {
            if request.options.launchReport {
                console.writeError(report.table() + "\n")
            }
        }
        guard let session = state.session else {
            console.writeError("albums: the library did not open\n")
            return failureExitCode
        }
        if isNew && state.seededDefaults {
            console.writeError("albums: created a new library at \(DisplayText.sanitized(path))\n")
        }
        do {
            if interactive {
                return try TerminalApp.run(session: session, currentAlbumID: state.currentAlbumID)
            }
            let runner = CommandRunner(
                session: session, options: request.options, console: console,
                terminalWidth: console.outputIsTerminal ? TerminalSize.columns(environment: environment) : nil)
            try runner.run(request.action)
            return 0
        } catch let error as UsageError {
            console.writeError(error.description + "\n")
            return UsageError.exitCode
        } catch {
            console.writeError("albums: \(describe(error))\n")
            return failureExitCode
        }
    }

    /// The environment variables albums reads, and only those.
    ///
    /// `ProcessInfo.environment` copies every variable into a dictionary, a twentieth of a short
    /// command's run; these few come from `getenv` directly.
    ///
    /// - Returns: `ALBUMS_DB`, `XDG_DATA_HOME`, `HOME`, `COLUMNS` and the tests' commit gate, when set.
    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in ["ALBUMS_DB", "XDG_DATA_HOME", "HOME", "COLUMNS", TestCommitGate.variable] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    /// One line for any error a command can end with.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as LibraryError: error.message
        case let error as DatabaseError: "storage error: \(error.message)"
        default: "\(error)"
        }
    }
}
