public import Foundation
import AlbumLibrary
import CommandStore

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
        do {
            let session = try LibrarySession.open(path: path)
            _ = try session.library.seedDefaultsIfNeeded()
            var command = request.command
            if command == .interactive {
                if console.outputIsTerminal && console.inputIsTerminal {
                    CursesTerminal.installSignalHandlers()
                    return try TerminalApp.run(session: session)
                }
                command = .list
            }
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
