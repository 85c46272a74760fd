import AlbumLibrary
import Foundation

/// Parses `albums [--db PATH] [--json] [--launch-report] COMMAND ...` by hand (no packages).
///
/// Global options may appear before or after the command. `--name value` and `--name=value`
/// are both accepted; `--` ends options, so a file called `-x` can still be imported.
/// Every problem is a ``UsageError`` naming the argument at fault.
///
/// ```swift
/// let request = try CommandLineParser.parse(["albums", "--json", "show", "2"])
/// // request.command == .show(position: 2), request.options.json == true
/// ```
public enum CommandLineParser: Sendable {
    /// The commands, in the order `--help` lists them.
    public static let commandNames = [
        "list", "show", "add", "edit", "move", "delete", "undo", "redo", "history", "import", "export", "help",
    ]

    /// Parses a full command line.
    ///
    /// - Parameter arguments: The process arguments, the program name first (as `CommandLine.arguments`).
    /// - Returns: The options and the command.
    /// - Throws: ``UsageError`` for an unknown command or option, a missing or malformed value,
    ///   or a value given twice.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineRequest {
        var options = GlobalOptions()
        var wantsHelp = false
        var wantsVersion = false
        var words: [String] = []
        var index = 1
        var endOfOptions = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if endOfOptions || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                continue
            }
            let (name, inlineValue) = split(argument)
            switch name {
            case "--":
                endOfOptions = true
                words.append("--")
            case "--db":
                guard options.databasePath == nil else { throw UsageError("--db given twice") }
                let path = try value(of: name, inline: inlineValue, arguments, &index, command: nil)
                guard !path.isEmpty else { throw UsageError("--db needs a file path") }
                options.databasePath = path
            case "--json":
                try noValue(name, inlineValue, command: nil)
                options.json = true
            case "--launch-report":
                try noValue(name, inlineValue, command: nil)
                options.launchReport = true
            case "--help", "-h":
                try noValue(name, inlineValue, command: nil)
                wantsHelp = true
            case "--version":
                try noValue(name, inlineValue, command: nil)
                wantsVersion = true
            default:
                // A command option: keep it, with its value, for the command's own parser.
                words.append(argument)
                if inlineValue == nil, commandOptionsTakingValues.contains(name), index < arguments.count {
                    words.append(arguments[index])
                    index += 1
                }
            }
        }

        guard let name = words.first(where: { $0 != "--" }) else {
            if wantsHelp { return CommandLineRequest(options: options, command: .help(topic: nil)) }
            if wantsVersion { return CommandLineRequest(options: options, command: .version) }
            return CommandLineRequest(options: options, command: .interactive)
        }
        let nameIndex = words.firstIndex(of: name)!
        if name.hasPrefix("-") && nameIndex == 0 {
            throw UsageError("unknown option '\(split(name).name)'")
        }
        guard commandNames.contains(name) else {
            throw UsageError("unknown command '\(name)'")
        }
        if wantsHelp {
            return CommandLineRequest(options: options, command: .help(topic: name))
        }
        if wantsVersion {
            throw UsageError("--version takes no command")
        }
        var rest = words
        rest.remove(at: nameIndex)
        let command = try parseCommand(name, ArgumentCursor(rest, command: name))
        return CommandLineRequest(options: options, command: command)
    }

    /// The command options that take a value, so `--title --x` keeps `--x` as the title.
    private static let commandOptionsTakingValues: Set<String> = [
        "--title", "--artist", "--genre", "--year", "--cover", "--at",
    ]

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
            return (argument, nil)
        }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func value(
        of name: String,
        inline: String?,
        _ arguments: [String],
        _ index: inout Int,
        command: String?
    ) throws(UsageError) -> String {
        if let inline { return inline }
        guard index < arguments.count else {
            throw UsageError("\(name) needs a value", command: command)
        }
        defer { index += 1 }
        return arguments[index]
    }

    private static func noValue(_ name: String, _ inline: String?, command: String?) throws(UsageError) {
        if inline != nil { throw UsageError("\(name) takes no value", command: command) }
    }

    private static func parseCommand(_ name: String, _ cursor: ArgumentCursor) throws(UsageError) -> AlbumsCommand {
        var cursor = cursor
        let command: AlbumsCommand
        switch name {
        case "list":
            command = .list
        case "history":
            command = .history
        case "show":
            command = .show(position: try cursor.position("POSITION"))
        case "delete":
            command = .delete(position: try cursor.position("POSITION"))
        case "move":
            let from = try cursor.position("FROM")
            command = .move(from: from, to: try cursor.position("TO"))
        case "undo":
            command = .undo(count: try cursor.optionalCount() ?? 1)
        case "redo":
            command = .redo(count: try cursor.optionalCount() ?? 1)
        case "import":
            guard let source = cursor.nextPositional() else {
                throw UsageError("import needs a FILE (or - for standard input)", command: name)
            }
            guard !source.isEmpty else {
                throw UsageError("import needs a file path, not an empty argument", command: name)
            }
            command = .importAlbums(source: source)
        case "export":
            let destination = cursor.nextPositional()
            guard destination != "" else {
                throw UsageError("export needs a file path, not an empty argument", command: name)
            }
            command = .export(destination: destination)
        case "help":
            let topic = cursor.nextPositional()
            if let topic, !commandNames.contains(topic) {
                throw UsageError("unknown command '\(topic)'", command: "help")
            }
            command = .help(topic: topic)
        case "add":
            let fields = try cursor.fields(allowing: ["--title", "--artist", "--genre", "--year", "--cover", "--at"])
            guard let title = fields.text["--title"] else {
                throw UsageError("add needs --title", command: name)
            }
            guard let artist = fields.text["--artist"] else {
                throw UsageError("add needs --artist", command: name)
            }
            var album = Album(title: title, artist: artist, genre: fields.text["--genre"] ?? "")
            album.year = fields.year
            album.coverURL = fields.cover
            do {
                album = try album.validated()
            } catch {
                throw UsageError(error.message, command: name)
            }
            command = .add(album, at: fields.at)
        case "edit":
            let position = try cursor.position("POSITION")
            let fields = try cursor.fields(allowing: ["--title", "--artist", "--genre", "--year", "--cover"])
            var changes = AlbumChanges()
            do {
                if let title = fields.text["--title"] {
                    changes.title = try Album.validatedText(title, field: "title", required: true)
                }
                if let artist = fields.text["--artist"] {
                    changes.artist = try Album.validatedText(artist, field: "artist", required: true)
                }
                if let genre = fields.text["--genre"] {
                    changes.genre = try Album.validatedText(genre, field: "genre", required: false)
                }
            } catch {
                throw UsageError(error.message, command: name)
            }
            changes.year = fields.year
            changes.coverURL = fields.cover
            guard !changes.isEmpty else {
                throw UsageError(
                    "edit needs at least one of --title, --artist, --genre, --year, --cover", command: name)
            }
            command = .edit(position: position, changes: changes)
        default:
            throw UsageError("unknown command '\(name)'")
        }
        try cursor.expectEnd()
        return command
    }
}

/// The arguments after the command's name, consumed left to right.
private struct ArgumentCursor {
    var words: [String]
    let command: String
    var endOfOptions = false

    init(_ words: [String], command: String) {
        self.words = words
        self.command = command
    }

    struct Fields {
        var text: [String: String] = [:]
        var year: Int?
        var cover: URL?
        var at: Int?
    }

    /// The next positional argument, skipping a `--`.
    mutating func nextPositional() -> String? {
        while let first = words.first {
            if first == "--" {
                endOfOptions = true
                words.removeFirst()
                continue
            }
            if !endOfOptions && first.hasPrefix("-") && first != "-" {
                return nil
            }
            return words.removeFirst()
        }
        return nil
    }

    mutating func position(_ label: String) throws(UsageError) -> Int {
        if let option = words.first, option.hasPrefix("-"), option != "--", !endOfOptions {
            if Int(option) != nil {
                throw UsageError("\(label) \(option) is not a position (positions start at 1)", command: command)
            }
            throw UsageError("unknown option '\(option)' for \(command)", command: command)
        }
        guard let word = nextPositional() else {
            throw UsageError("\(command) needs \(label)", command: command)
        }
        return try Self.parsePosition(word, label: label, command: command)
    }

    static func parsePosition(_ word: String, label: String, command: String) throws(UsageError) -> Int {
        guard let value = Int(word) else {
            throw UsageError("\(label) '\(word)' is not a whole number", command: command)
        }
        guard value >= 1 else {
            throw UsageError("\(label) \(value) is not a position (positions start at 1)", command: command)
        }
        return value
    }

    /// An optional COUNT (undo, redo): absent, or a whole number of at least 1.
    mutating func optionalCount() throws(UsageError) -> Int? {
        if words.first == "--" {
            words.removeFirst()
            endOfOptions = true
        }
        guard let word = words.first else { return nil }
        // "-2" reads as a (bad) count, "--all" as an unknown option.
        if word.hasPrefix("-") && Int(word) == nil && !endOfOptions {
            throw UsageError("unknown option '\(word)' for \(command)", command: command)
        }
        words.removeFirst()
        guard let value = Int(word) else {
            throw UsageError("COUNT '\(word)' is not a whole number", command: command)
        }
        guard value >= 1 else {
            throw UsageError("COUNT \(value) must be at least 1", command: command)
        }
        return value
    }

    mutating func fields(allowing allowed: Set<String>) throws(UsageError) -> Fields {
        var fields = Fields()
        var seen: Set<String> = []
        var remaining: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("--"), word != "--" else {
                remaining.append(word)
                continue
            }
            var name = word
            var value: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            }
            guard allowed.contains(name) else {
                throw UsageError("unknown option '\(name)' for \(command)", command: command)
            }
            guard !seen.contains(name) else {
                throw UsageError("\(name) given twice", command: command)
            }
            seen.insert(name)
            if value == nil {
                guard index < words.count else {
                    throw UsageError("\(name) needs a value", command: command)
                }
                value = words[index]
                index += 1
            }
            let text = value ?? ""
            if name == "--at" {
                fields.at = try Self.parsePosition(text, label: "--at", command: command)
                continue
            }
            do throws(LibraryError) {
                switch name {
                case "--year":
                    fields.year = try Album.parsedYear(text)
                case "--cover":
                    fields.cover = try Album.parsedCoverURL(text)
                default:
                    fields.text[name] = text
                }
            } catch {
                throw UsageError(error.message, command: command)
            }
        }
        words = remaining
        return fields
    }

    mutating func expectEnd() throws(UsageError) {
        let left = words.filter { $0 != "--" }
        guard let first = left.first else { return }
        if first.hasPrefix("-") && first != "-" && !endOfOptions {
            throw UsageError("unknown option '\(first)' for \(command)", command: command)
        }
        throw UsageError("unexpected argument '\(first)' for \(command)", command: command)
    }
}
