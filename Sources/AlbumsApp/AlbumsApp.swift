import AlbumLibrary
import CommandStore
public import Foundation
import LaunchKit
import SQLiteDatabase

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
    ///   - environment: The process environment (`ALBUMS_DB`, `XDG_DATA_HOME`, `HOME`).
    ///   - console: Where to write and read.
    /// - Returns: The exit status: 0 on success, 1 when the command failed, 2 for a usage error.
    @MainActor
    public static func run(
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard
    ) async -> Int32 {
        let request: CommandLineRequest
        do {
            request = try CommandLineParser.parse(arguments)
        } catch {
            console.writeError(error.description + "\n")
            return UsageError.exitCode
        }
        switch request.command {
        case .help(let topic):
            console.write((topic.flatMap(HelpText.help(for:)) ?? HelpText.overview) + "\n")
            return 0
        case .version:
            console.write(HelpText.version + "\n")
            return 0
        default:
            break
        }
        let path = LibraryFile.defaultPath(explicitPath: request.options.databasePath, environment: environment)
        let interactive = request.command == .interactive && console.outputIsTerminal && console.inputIsTerminal
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
        do {
            if interactive {
                return try TerminalApp.run(session: session, currentAlbumID: state.currentAlbumID)
            }
            let command = request.command == .interactive ? .list : request.command
            let runner = CommandRunner(session: session, options: request.options, console: console)
            try runner.run(command)
            return 0
        } catch let error as UsageError {
            console.writeError(error.description + "\n")
            return UsageError.exitCode
        } catch {
            console.writeError("albums: \(describe(error))\n")
            return failureExitCode
        }
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
