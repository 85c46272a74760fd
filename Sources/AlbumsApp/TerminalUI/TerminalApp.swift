import AlbumLibrary

/// The terminal UI's entry point (filled in by the curses layer).
enum TerminalApp {
    static func run(session: LibrarySession) throws -> Int32 {
        throw LibraryError(.storage, "the terminal UI is not built yet")
    }
}
