import AlbumLibrary

/// The everyday command lines, parsed without ArgumentParser: `list`, `show ALBUM`,
/// `delete ALBUM`, `move ALBUM TO`, `undo [COUNT]`, `redo [COUNT]`, `history`, `info`,
/// `export [FILE]`, and no subcommand, with `--db PATH`, `--author NAME`, `--json` (`-j`) and
/// `--launch-report`.
///
/// Why: ArgumentParser builds its whole command tree through reflection on every run, which costs
/// a `list` or `undo` process about a third of its time (BENCHMARKS.md, "Start-up"). A line this
/// recognizes gets the very request ArgumentParser would return (`CommandLineParserTests` checks
/// that on generated command lines); anything else — any other option, a value that is not valid,
/// help, a completion script — returns `nil`, and ArgumentParser parses it and words its error.
enum QuickParse {
    /// The request for `words` (the arguments after the program name), or `nil` to let
    /// ArgumentParser decide.
    static func request(_ words: [String]) -> CommandLineRequest? {
        var options = GlobalOptions()
        var subcommand: String?
        var operands: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            switch word {
            case "--json", "-j":
                guard !options.json else { return nil }
                options.json = true
            case "--launch-report":
                guard !options.launchReport else { return nil }
                options.launchReport = true
            case "--db":
                // A value that looks like an option is ArgumentParser's to refuse ("--db needs a value").
                guard options.databasePath == nil, index < words.count, !words[index].isEmpty,
                    !words[index].hasPrefix("-")
                else { return nil }
                options.databasePath = words[index]
                index += 1
            case "--author":
                guard options.author == nil, index < words.count, !words[index].hasPrefix("-") else { return nil }
                options.author = words[index]
                index += 1
            default:
                guard !word.hasPrefix("-") else { return nil }
                if subcommand == nil {
                    subcommand = word
                } else {
                    operands.append(word)
                }
            }
        }
        guard let action = action(subcommand, operands) else { return nil }
        return CommandLineRequest(options: options, action: action)
    }

    private static func action(_ subcommand: String?, _ operands: [String]) -> AlbumsAction? {
        // A query's words (`delete genre:pop`) are for the subcommand's own parsing.
        if subcommand == "delete" || subcommand == "move", let first = operands.first,
            (try? BulkOptions.selection([first], command: "")) != .some(nil)
        {
            return nil
        }
        do {
            switch (subcommand, operands.count) {
            case (nil, 0): return .interactive
            case ("list", 0): return .list(query: nil, order: .position)
            case ("history", 0): return .history(limit: nil)
            case ("info", 0): return .info
            case ("export", 0): return .export(destination: nil)
            case ("export", 1) where !operands[0].isEmpty: return .export(destination: operands[0])
            case ("undo", 0): return .undo(count: 1)
            case ("redo", 0): return .redo(count: 1)
            case ("undo", 1): return .undo(count: try ArgumentValue.count(operands[0], label: "COUNT", command: "undo"))
            case ("redo", 1): return .redo(count: try ArgumentValue.count(operands[0], label: "COUNT", command: "redo"))
            case ("show", 1): return .show(try AlbumReference(parsing: operands[0], label: "ALBUM", command: "show"))
            case ("delete", 1):
                return .delete(try AlbumReference(parsing: operands[0], label: "ALBUM", command: "delete"))
            case ("move", 2):
                let selector = try AlbumReference(parsing: operands[0], label: "ALBUM", command: "move")
                return .move(selector, to: try ArgumentValue.position(operands[1], label: "TO", command: "move"))
            default: return nil
            }
        } catch {
            // A bad value: ArgumentParser's path words the error, with the subcommand's help.
            return nil
        }
    }
}
