import AlbumLibrary
import Foundation
import Synchronization

/// The terminal UI's loop: draw when something changed, read a key (or time out to check for
/// a termination signal and for other processes' changes), hand it to the window. The terminal is restored on every way out.
enum TerminalApp {
    /// Runs the terminal UI until the user quits or a signal arrives.
    ///
    /// - Parameters:
    ///   - session: The open library.
    ///   - currentAlbumID: The album to show first.
    ///   - notice: A line for the status line at start (lost log commits), if any.
    ///   - undoScope: Whose changes `u` and `r` take back at first.
    /// - Returns: 0 after Quit, 128 + the signal number after SIGINT, SIGTERM or SIGHUP.
    /// - Throws: ``TerminalError`` when the terminal cannot be started, or a library error on
    ///   the first load, or when the library file is removed or replaced by one that cannot be
    ///   opened (after the terminal is restored).
    static func run(
        session: LibrarySession, currentAlbumID: UUID?, notice: String? = nil,
        undoScope: LibraryWindow.UndoScope = .everyone
    ) throws -> Int32 {
        let terminal = CursesTerminal()
        try terminal.start()
        defer { terminal.stop() }
        var window = try LibraryWindow(session: session, currentAlbumID: currentAlbumID, undoScope: undoScope)
        if let notice { window.state.status = notice }
        var drawnSize = (width: -1, height: -1)
        while window.isRunning {
            let signal = terminationSignal.load(ordering: .relaxed)
            if signal != 0 {
                return 128 + signal
            }
            let size = terminal.size
            if window.needsRedraw || size != drawnSize {
                terminal.draw(BrowserScreen.render(window.state, width: size.width, height: size.height))
                window.needsRedraw = false
                drawnSize = size
            }
            window.width = size.width
            if let key = terminal.readKey() {
                window.handle(key)
            } else {
                // Idle (the key read timed out): show what other processes changed meanwhile.
                window.followExternalChanges()
            }
            // Another program replaced, wrote over or removed the file: the file there now, or stop.
            if let change = window.fileChange {
                window = try window.reopenedWindow(after: change)
            }
        }
        return 0
    }
}
