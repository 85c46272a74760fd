import ArgumentParser

/// Parses `albums [--db PATH] [--json] [--launch-report] SUBCOMMAND ...` with swift-argument-parser.
///
/// ArgumentParser does the parsing, the help, `--version` and `--generate-completion-script`;
/// this type turns its result into an ``AlbumsAction`` and each of its errors into one
/// ``UsageError`` line in the program's words, naming the argument at fault and the subcommand's
/// `--help`. Global options may appear before or after the subcommand; `--name value` and
/// `--name=value` are both accepted; `--` ends options, so a file called `-x` can still be imported.
///
/// ```swift
/// let request = try CommandLineParser.parse(["albums", "--json", "show", "2"])
/// // request.action == .show(.position(2)), request.options.json == true
/// ```
public enum CommandLineParser: Sendable {
    /// The subcommands, in the order `--help` lists them.
    static let subcommands: [any AlbumsSubcommand.Type] = [
        ListSubcommand.self, ShowSubcommand.self, AddSubcommand.self, EditSubcommand.self, MoveSubcommand.self,
        DeleteSubcommand.self, UndoSubcommand.self, RedoSubcommand.self, HistorySubcommand.self,
        CoverSubcommand.self, ImportSubcommand.self, ExportSubcommand.self, InfoSubcommand.self, InitSubcommand.self,
        StatsSubcommand.self, ServeSubcommand.self,
    ]

    /// The subcommands' names, `help` included, in the order `--help` lists them.
    public static var commandNames: [String] {
        subcommands.map { subcommand in subcommand.configuration.commandName ?? "" } + ["help"]
    }

    /// Parses a full command line.
    ///
    /// - Parameter arguments: The process arguments, the program name first (as `CommandLine.arguments`).
    /// - Returns: The options and the action; help, the version and completion scripts are an
    ///   ``AlbumsAction/output(_:)`` to print.
    /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing or malformed value,
    ///   or a value given twice.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineRequest {
        let words = Array(arguments.dropFirst())
        if let request = QuickParse.request(words) { return request }
        return try parseWithArgumentParser(words)
    }

    /// Parses with ArgumentParser, whatever the command line.
    static func parseWithArgumentParser(_ words: [String]) throws(UsageError) -> CommandLineRequest {
        let scan = try ArgumentScan(words, subcommands: Set(commandNames))
        let parsed: any ParsableCommand
        do {
            parsed = try AlbumsCommandLine.parseAsRoot(words)
        } catch {
            // Help, `--version` and completion scripts end ArgumentParser's parse as "clean exits".
            if AlbumsCommandLine.exitCode(for: error) == .success {
                return CommandLineRequest(action: .output(AlbumsCommandLine.fullMessage(for: error)))
            }
            throw usageError(for: error, scan: scan, words: words)
        }
        if !(parsed is AlbumsCommandLine) && !(parsed is any AlbumsSubcommand) {
            // ArgumentParser's own `help` subcommand: running it asks for the help it names.
            var help = parsed
            do {
                try help.run()
            } catch {
                return CommandLineRequest(action: .output(AlbumsCommandLine.fullMessage(for: error)))
            }
        }
        guard let subcommand = parsed as? any AlbumsSubcommand else {
            let root = parsed as? AlbumsCommandLine
            return CommandLineRequest(options: try root?.global.options() ?? GlobalOptions(), action: .interactive)
        }
        let request = CommandLineRequest(options: try subcommand.root.global.options(), action: try subcommand.action())
        if case .list(_, _, .some) = request.action, request.options.json {
            throw UsageError("--format and --json do not go together", command: "list")
        }
        return request
    }

    /// An ArgumentParser error as one line.
    private static func usageError(for error: any Error, scan: ArgumentScan, words: [String]) -> UsageError {
        let command = scan.subcommand
        let message = AlbumsCommandLine.message(for: error)
        let line = message.split(separator: "\n").first.map(String.init) ?? message
        return UsageError(reworded(line, command: command, words: words), command: command)
    }

    /// ArgumentParser's message ("Missing expected argument '<album>'") in the program's words
    /// ("show needs ALBUM"), which name the subcommand.
    ///
    /// - Parameter words: The arguments ArgumentParser was given: an argument the message quotes
    ///   is one of them, whole, even when it holds a quote itself ("It's My Life").
    static func reworded(_ line: String, command: String?, words: [String]) -> String {
        let forCommand = command.map { " for \($0)" } ?? ""
        let quoted = { (prefix: String) in Self.quoted(line, after: prefix, words: words) }
        if let name = quoted("Unknown option ") {
            return "unknown option '\(name)'\(forCommand)"
        }
        if let value = quoted("Unexpected argument ") {
            return command == nil ? "unknown command '\(value)'" : "unexpected argument '\(value)'\(forCommand)"
        }
        if let range = line.firstRange(of: "unexpected arguments: ") {
            let first = Self.quoted(String(line[range.upperBound...]), after: "", words: words) ?? ""
            return "unexpected argument '\(first)'\(forCommand)"
        }
        if let argument = quoted("Missing expected argument ") {
            // A required option ("--title <title>"): its name and its value's, as the usage shows them.
            if argument.hasPrefix("-") {
                let option = argument.prefix { $0 != " " }
                let value = argument.drop { $0 != "<" }.dropFirst().prefix { $0 != ">" }.uppercased()
                return "\(command ?? "albums") needs \(option)" + (value.isEmpty ? "" : " \(value)")
            }
            let label = argument.trimmingPrefix("<").prefix { $0 != ">" }.uppercased()
            return "\(command ?? "albums") needs \(label)"
        }
        if let option = quoted("Missing value for ") {
            return "\(option.prefix { $0 != " " }) needs a value"
        }
        if let option = quoted("The option "), line.contains("does not take any value") {
            return "\(option) takes no value"
        }
        var text = line
        if text.hasPrefix("Error: ") { text.removeFirst(7) }
        if text.hasSuffix(".") { text.removeLast() }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The text between the quotes that follow `prefix`, when `line` starts with it.
    ///
    /// The quoted text is found among `words` (or a `--name=value` word's name), the longest that
    /// fits, so an apostrophe inside it does not end it; text that is no word (ArgumentParser's
    /// `<album>`) ends at the next quote.
    private static func quoted(_ line: String, after prefix: String, words: [String]) -> String? {
        guard line.hasPrefix(prefix + "'") else { return nil }
        let rest = line.dropFirst(prefix.count + 1)
        let candidates = words + words.compactMap { word in word.split(separator: "=").first.map(String.init) }
        if let word = candidates.filter({ rest.hasPrefix($0 + "'") }).max(by: { $0.count < $1.count }) {
            return word
        }
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }
}
