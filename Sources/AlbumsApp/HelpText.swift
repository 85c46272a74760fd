/// The text `--help` prints, for the whole program and for each command.
public enum HelpText: Sendable {
    /// The program's version, printed by `albums --version`.
    public static let version = "albums 1.0.0"

    /// The overview `albums --help` prints.
    public static let overview = """
        albums: an album library with undo that survives the process.

        USAGE: albums [--db PATH] [--json] [--launch-report] [COMMAND] [ARGUMENTS...]

        With no command, albums opens the terminal UI on a TTY and lists the albums otherwise.

        COMMANDS:
          list                      List the albums with their positions (1 is the first)
          show POSITION             Show one album's details
          add --title T --artist A [--genre G] [--year Y] [--cover URL] [--at POSITION]
                                    Add an album (at the end unless --at)
          edit POSITION [--title T] [--artist A] [--genre G] [--year Y] [--cover URL]
                                    Change an album's fields
          move FROM TO              Move an album so that it ends up at TO
          delete POSITION           Delete an album
          undo [COUNT]              Undo the last COUNT changes (default 1)
          redo [COUNT]              Redo the last COUNT undone changes (default 1)
          history                   Show each step, the current position marked
          import FILE|-             Append the albums of a JSON file (- reads standard input), as one step
          export [FILE|-]           Write the library as JSON (standard output by default)
          help [COMMAND]            Show this help, or a command's

        OPTIONS:
          --db PATH                 The library file (default: $ALBUMS_DB, else
                                    $XDG_DATA_HOME/albums/library.sqlite, else
                                    ~/.local/share/albums/library.sqlite)
          --json                    Print list, show and history as JSON
          --launch-report           Print the start-up report on standard error after the command
          -h, --help                Show help (also after a command: albums add --help)
          --version                 Show the version

        Changes are saved as they happen; undo and redo work across runs.
        Exit status: 0 on success, 1 when the command fails, 2 for a usage error.
        """

    /// The help for one command, or `nil` for an unknown name.
    ///
    /// - Parameter command: The command's name.
    /// - Returns: Its help text.
    public static func help(for command: String) -> String? {
        switch command {
        case "list":
            return """
                USAGE: albums [--json] list

                Lists every album with its position (1 is the first); * marks the current album.
                With --json: an array of objects with position, current and the album fields.
                """
        case "show":
            return """
                USAGE: albums [--json] show POSITION

                Shows the album at POSITION (1 is the first): title, artist, genre, year, cover and id.
                """
        case "add":
            return """
                USAGE: albums add --title T --artist A [--genre G] [--year Y] [--cover URL] [--at POSITION]

                Adds an album at POSITION (1 is the first; default: after the last album).
                  --title T        The title (required)
                  --artist A       The artist (required)
                  --genre G        The genre
                  --year Y         The release year, a whole number from 1 to 9999
                  --cover URL      Where the cover image lives, an absolute URL
                  --at POSITION    Where to insert it, from 1 to the number of albums plus one
                """
        case "edit":
            return """
                USAGE: albums edit POSITION [--title T] [--artist A] [--genre G] [--year Y] [--cover URL]

                Changes the given fields of the album at POSITION; at least one is required.
                --genre "" clears the genre.
                """
        case "move":
            return """
                USAGE: albums move FROM TO

                Moves the album at FROM so that it ends up at position TO.
                """
        case "delete":
            return """
                USAGE: albums delete POSITION

                Deletes the album at POSITION. 'albums undo' brings it back, even in a later run.
                """
        case "undo":
            return """
                USAGE: albums undo [COUNT]

                Undoes the last COUNT changes (default 1). Fails, changing nothing, when fewer are left.
                """
        case "redo":
            return """
                USAGE: albums redo [COUNT]

                Redoes the last COUNT undone changes (default 1). Fails, changing nothing, when fewer are left.
                """
        case "history":
            return """
                USAGE: albums [--json] history

                Lists each step of the history, oldest first; > marks where the library is now.
                Steps after the mark are undone and can be redone.
                """
        case "import":
            return """
                USAGE: albums import FILE|-

                Appends the albums of FILE (- reads standard input) as one undoable step, all or nothing.
                The file is a JSON array of objects: "title" and "artist" (required strings), "genre"
                (string), "year" (whole number), "cover" (absolute URL), "id" (UUID); no other keys.
                FILE must be a regular file (a link to one is followed); for a pipe, use -.
                """
        case "export":
            return """
                USAGE: albums export [FILE|-]

                Writes every album as JSON, in the format 'albums import' reads, to FILE or standard output.
                FILE is replaced as a whole; if it exists it must be a regular file. For a pipe, use -.
                """
        case "help":
            return """
                USAGE: albums help [COMMAND]

                Shows the overview, or the help of COMMAND.
                """
        default:
            return nil
        }
    }
}
