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

    /// The exit status of a change that was made and saved, whose report to standard output could
    /// not be written (`albums add … > /dev/full`): the library has the change.
    public static let reportLostExitCode: Int32 = 3

    /// Checks, before anything starts a thread, that the process's limits leave albums the file
    /// descriptors and address space it needs (`ResourceCheck`); when they do not, writes the
    /// one-line refusal and returns the exit status.
    ///
    /// `main.swift` calls it first of all: Dispatch, which the main actor's run loop starts, traps
    /// (SIGILL) when it cannot get its descriptors.
    /// - Parameter console: Where to write the refusal.
    /// - Returns: ``failureExitCode`` after a refusal, `nil` when the run can start.
    public static func refusalBeforeStart(console: Console = .standard) -> Int32? {
        _ = StandardDescriptors.closedAtStart  // before anything opens a file, so none lands on 0...2
        guard let refusal = ResourceCheck.startupRefusal() else { return nil }
        console.writeErrorLine(refusal)
        return failureExitCode
    }

    /// Runs the program.
    ///
    /// - Parameters:
    ///   - arguments: The process arguments, the program name first.
    ///   - environment: The process environment (`ALBUMS_DB`, `ALBUMS_AUTHOR`, `ALBUMS_UNDO`,
    ///     `XDG_DATA_HOME`, `HOME`, `COLUMNS`).
    ///   - console: Where to write and read.
    /// - Returns: The exit status: 0 on success, 1 when the command failed, 2 for a usage error,
    ///   3 (``reportLostExitCode``) when a change was saved but its report could not be written.
    @MainActor
    public static func run(
        arguments: [String],
        environment: [String: String] = AlbumsApp.environment(),
        console: Console = .standard
    ) async -> Int32 {
        // First, before anything starts a thread or opens a file: a lack of either ends the
        // process with a signal, not an error, once Dispatch meets it.
        _ = StandardDescriptors.closedAtStart
        if let refusal = ResourceCheck.startupRefusal() {
            console.writeErrorLine(refusal)
            return failureExitCode
        }
        let (status, changed) = await runCommand(arguments: arguments, environment: environment, console: console)
        if let failure = console.outputFailure() {
            // A change is committed before its report is printed: say that it stands, and exit
            // with a status of its own, so a script neither redoes it nor takes the run for done.
            if changed {
                console.writeErrorLine(
                    "albums: the change is saved, but its report could not be written to standard output: \(failure)")
                return reportLostExitCode
            }
            // A command whose output was lost did not succeed, whatever it did.
            console.writeErrorLine("albums: cannot write to standard output: \(failure)")
            return status == 0 ? failureExitCode : status
        }
        // The session is released by now (its last close checkpointed the log): the file is as
        // this run leaves it, and the next run may skip checking a large library in full.
        if status == 0 { LibraryFile.recordVerifiedLibraries() }
        return status
    }

    @MainActor
    private static func runCommand(
        arguments: [String], environment: [String: String], console: Console
    ) async -> (status: Int32, changed: Bool) {
        let request: CommandLineRequest
        do {
            request = try CommandLineParser.parse(arguments)
        } catch {
            console.writeErrorLine(error.description)
            return (UsageError.exitCode, false)
        }
        if case .output(let text) = request.action {
            console.write(text.hasSuffix("\n") ? text : text + "\n")
            return (0, false)
        }
        let location: LibraryLocation
        do {
            location = try LibraryLocation.resolve(explicit: request.options.databasePath, environment: environment)
        } catch {
            console.writeErrorLine("albums: \(describe(error))")
            return (failureExitCode, false)
        }
        if case .initLibrary(let target, let empty) = request.action {
            do {
                let created = try target.map { try LibraryLocation.resolve(explicit: $0, environment: environment) }
                console.write(
                    try LibraryCreation.create(at: created ?? location, empty: empty, json: request.options.json))
                return (0, true)
            } catch {
                console.writeErrorLine("albums: \(describe(error))")
                return (failureExitCode, false)
            }
        }
        let named = !(request.options.databasePath ?? "").isEmpty || !(environment["ALBUMS_DB"] ?? "").isEmpty
        if case .file(let path) = location,
            let refusal = LibraryCreation.refusal(at: path, for: request.action, named: named)
        {
            console.writeErrorLine("albums: \(refusal)")
            return (failureExitCode, false)
        }
        let author: String
        let undoScope: LibraryWindow.UndoScope
        do {
            author = try AuthorName.resolve(explicit: request.options.author, environment: environment)
            // Checked by every command, as ALBUMS_AUTHOR is: a mistyped setting never goes unnoticed.
            undoScope = try LibraryWindow.UndoScope.named(environment["ALBUMS_UNDO"])
        } catch {
            console.writeErrorLine(error.description)
            return (UsageError.exitCode, false)
        }
        // A mistyped --db would otherwise make a new library without a word.
        let isNew: Bool
        switch location {
        case .file(let path): isNew = access(path, F_OK) != 0
        #if PostgreSQL
        case .server: isNew = false  // albums init creates it
        #endif
        }
        let interactive = request.action == .interactive && console.outputIsTerminal && console.inputIsTerminal
        let state: AlbumsLaunch.State
        let report: LaunchReport
        do {
            (state, report) = try await AlbumsLaunch.run(
                location: location,
                interactive: interactive,
                options: LaunchOptions(arguments: arguments, environment: environment)
            )
        } catch {
            if request.options.launchReport, let report = error.report {
                console.writeError(report.table() + "\n")
            }
            console.writeErrorLine("albums: \(describe(error.error))")
            return (failureExitCode, false)
        }
        // The report follows the command's own output, on stderr, whatever the command's fate.
        defer {
            if request.options.launchReport {
                console.writeError(report.table() + "\n")
            }
        }
        guard let session = state.session else {
            console.writeErrorLine("albums: the library did not open")
            return (failureExitCode, false)
        }
        session.history.author = author
        if isNew && state.seededDefaults {
            console.writeError("albums: created a new library at \(DisplayText.sanitized(session.path))\n")
        }
        // The run goes on (SQLite kept what the log held before the damage), but the loss is said.
        let lostLogNotice = session.lostLogCommitsNotice
        if let lostLogNotice, !interactive { console.writeErrorLine("albums: \(lostLogNotice)") }
        if case .serve(let serveOptions) = request.action {
            return (
                await serve(
                    session: session, options: serveOptions, author: author, arguments: arguments,
                    environment: environment, console: console), false
            )
        }
        do {
            if interactive {
                return (
                    try TerminalApp.run(
                        session: session, currentAlbumID: state.currentAlbumID, notice: lostLogNotice,
                        undoScope: undoScope),
                    false
                )
            }
            let runner = ActionRunner(
                session: session, options: request.options, console: console,
                terminalWidth: console.outputIsTerminal ? TerminalSize.columns(environment: environment) : nil)
            try runner.run(request.action)
            // While another process (the terminal UI) keeps the library open, this run's close does
            // not checkpoint: copy its commits into the file now, so a backup copied over the file
            // later replaces them too instead of meeting them in the log (never waits, µs if none).
            try? session.checkpoint()
            return (0, request.action.isMutating)
        } catch let error as UsageError {
            console.writeErrorLine(error.description)
            return (UsageError.exitCode, false)
        } catch {
            console.writeErrorLine("albums: \(describe(error))")
            return (failureExitCode, false)
        }
    }

    /// The environment variables albums reads, and only those.
    ///
    /// `ProcessInfo.environment` copies every variable into a dictionary, a twentieth of a short
    /// command's run; these few come from `getenv` directly.
    ///
    /// - Returns: `ALBUMS_DB`, `ALBUMS_AUTHOR`, `USER`, `LOGNAME`, `XDG_DATA_HOME`, `HOME`, `COLUMNS`
    ///   and the tests' commit gate, event heartbeat and serve's drain, when set.
    public static func environment() -> [String: String] {
        var found: [String: String] = [:]
        for name in [
            "ALBUMS_DB", "ALBUMS_AUTHOR", "ALBUMS_UNDO", "USER", "LOGNAME", "XDG_DATA_HOME", "HOME", "COLUMNS",
            TestCommitGate.variable, testHeartbeatVariable, testDrainVariable,
        ] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    /// One line for any error a command can end with.
    static func describe(_ error: any Error) -> String {
        // A damaged page, or tables that do not match the schema the file records (which only
        // damage or tampering makes): said in the program's words, with what to do.
        if let damage = LibraryError(damage: error) { return damage.message }
        switch error {
        case let error as LibraryError: return error.message
        case let error as DatabaseError:
            // "<path> is read-only: …" names the file and the cause already.
            if error.resultCode.primaryResultCode == .readOnly, let path = error.path, error.message.hasPrefix(path) {
                return error.message
            }
            return "storage error: \(error.message)"
        default: return "\(error)"
        }
    }
}
