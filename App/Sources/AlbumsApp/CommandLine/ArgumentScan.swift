import AlbumLibrary

/// A first look at the words before ArgumentParser parses them: which subcommand they name, and
/// two mistakes ArgumentParser would let through or word vaguely.
///
/// ArgumentParser keeps the last of a repeated option (`--title A --title B` adds "B"); a repeat
/// is a slip worth refusing. And a mistyped subcommand would read as an "unexpected argument".
struct ArgumentScan {
    /// The subcommand named, if any.
    private(set) var subcommand: String?

    /// The options whose value is the next word (or follows `=`), every spelling.
    static let optionsTakingValues: Set<String> = [
        "--db", "--title", "-t", "--artist", "-a", "--genre", "-g", "--year", "-y", "--cover", "-c", "--at",
        "--search", "-s", "--sort", "--format", "--limit", "-n", "--to", "--author", "--generate-completion-script",
    ]

    /// The long name of a short option, so `-t X --title Y` counts as a repeat.
    private static let longNames: [String: String] = [
        "-t": "--title", "-a": "--artist", "-g": "--genre", "-y": "--year", "-c": "--cover", "-s": "--search",
        "-n": "--limit",
    ]

    /// Why a negative value is refused for the number option `key`, or `nil` when `key` takes text.
    private static func negativeRefusal(_ key: String, _ number: Int) -> String? {
        switch key {
        case "--limit": "must be at least 1"
        case "--at": "is not a position (positions start at 1)"
        case "--to": "is not a step (steps are numbered from 0, the start)"
        case "--year": "is out of range (\(Album.validYears.lowerBound)...\(Album.validYears.upperBound))"
        default: nil
        }
    }

    /// Scans the words after the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown subcommand or an option given twice.
    init(_ words: [String], subcommands: Set<String>) throws(UsageError) {
        var seen: Set<String> = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" { break }
            // A list query's "-1999" is a negated term, not a number.
            if let subcommand, subcommand != "list", let number = Int(word), number < 0 {
                // ArgumentParser would read "-2" as a short option.
                throw UsageError(
                    subcommand == "undo" || subcommand == "redo"
                        ? "COUNT \(number) must be at least 1" : "\(number) is not a position (positions start at 1)",
                    command: subcommand)
            }
            guard word.hasPrefix("-"), word != "-" else {
                if subcommand == nil {
                    guard subcommands.contains(word) else { throw UsageError("unknown command '\(word)'") }
                    subcommand = word
                }
                continue
            }
            let name = word.hasPrefix("--") ? String(word.prefix { $0 != "=" }) : word
            let key = Self.longNames[name] ?? name
            if Self.optionsTakingValues.contains(name) {
                if seen.contains(key) { throw UsageError("\(key) given twice", command: subcommand) }
                seen.insert(key)
                // The value is the next word, whatever it looks like (`--title --help`), but a
                // negative number for a number option would reach ArgumentParser as an option
                // ("-n needs a value"): it is refused here, in the option's words.
                if !word.contains("="), index < words.count, let number = Int(words[index]), number < 0,
                    let refusal = Self.negativeRefusal(key, number)
                {
                    throw UsageError("\(name) \(number) \(refusal)", command: subcommand)
                }
                if !word.contains("=") { index += 1 }
            }
        }
    }
}
