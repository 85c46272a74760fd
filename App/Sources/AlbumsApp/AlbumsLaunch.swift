import AlbumLibrary
import Foundation
import LaunchKit

/// The albums start-up, as launch commands on LaunchKit's ``AppInvoker``:
///
/// ```
/// open-library → seed-defaults → restore-current-album
/// install-signal-handlers (the terminal UI only)
/// ```
///
/// The library's connection is not `Sendable`, so the commands that touch it run on the main
/// actor and leave the open session in ``AlbumsLaunch/State``, which the main actor owns.
@MainActor
enum AlbumsLaunch {
    /// What the launch produced, handed to the command that runs after it.
    @MainActor
    final class State {
        var session: LibrarySession?
        var currentAlbumID: AlbumLibrary.Album.ID?
        var seededDefaults = false
    }

    /// A launch that failed: the failing command's own error (the one worth a line on the
    /// terminal) and the report so far.
    struct Failure: Error {
        var error: any Error
        var report: LaunchReport?
    }

    /// Runs the launch and returns the open session, with the report for `--launch-report`.
    ///
    /// - Parameters:
    ///   - location: The library file, or the server.
    ///   - interactive: Whether the terminal UI follows (it installs the signal handlers).
    ///   - options: The launch options (arguments and environment).
    /// - Returns: The session, the current album and the report.
    /// - Throws: ``Failure`` with what the first failing command threw (a ``LibraryError`` for a
    ///   bad file) and the report.
    static func run(
        location: LibraryLocation, interactive: Bool, options: LaunchOptions
    ) async throws(Failure) -> (State, LaunchReport) {
        let state = State()
        var commands: [any AppCommand] = [
            LaunchCommand.onMainActor("open-library") { _ in
                let session = try location.open()
                try TestCommitGate.installIfRequested(on: session, environment: ProcessInfo.processInfo.environment)
                state.session = session
            },
            LaunchCommand.onMainActor("seed-defaults", dependsOn: ["open-library"]) { _ in
                state.seededDefaults = try state.session?.library.seedDefaultsIfNeeded() ?? false
            },
            LaunchCommand.onMainActor("restore-current-album", dependsOn: ["seed-defaults"]) { _ in
                state.currentAlbumID = try state.session?.library.currentAlbumID()
            },
        ]
        if interactive {
            // On the main actor: the input loop runs on the main thread, where the handlers
            // also unblock the signals.
            commands.append(
                LaunchCommand.onMainActor("install-signal-handlers") { _ in
                    CursesTerminal.installSignalHandlers()
                }
            )
        }
        let invoker = AppInvoker(commands: commands, options: options, maxConcurrency: 2)
        do {
            let report = try await invoker.run()
            return (state, report)
        } catch {
            throw Failure(error: error.underlyingError ?? error, report: error.report)
        }
    }
}
