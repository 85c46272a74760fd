import Foundation
import TestSupport
import Testing

/// The built `albums` binary on one library file, run as a user would, with a deadline.
struct AlbumsCLI {
    let database: String
    /// Only catches a hang (``Patience``).
    var timeout: TimeInterval = Patience.childProcessSeconds

    /// Runs `albums --db <database> <arguments>`.
    ///
    /// A reading command on a library not created yet runs `albums --db <database> init` first
    /// (reading commands never create one at a named path), so a test may begin with any command.
    func run(
        _ arguments: [String], input: Data = Data(), environment: [String: String] = [:]
    ) async throws -> ChildProcess.Result {
        if Self.reads(arguments), !FileManager.default.fileExists(atPath: database) {
            let created = try await ChildProcess.run(
                "albums", ["--db", database, "init"], environment: environment, timeout: timeout)
            guard created.status == 0 else { return created }
        }
        return try await ChildProcess.run(
            "albums", ["--db", database] + arguments, input: input, environment: environment, timeout: timeout)
    }

    /// Whether a command line (after `--db PATH`) reads only: no subcommand, `list`, `show`,
    /// `history`, `info`, `export`, or `import --dry-run`.
    static func reads(_ arguments: [String]) -> Bool {
        var words = arguments[...]
        while let word = words.first, word.hasPrefix("-") {
            words = words.dropFirst(["--author", "--db"].contains(word) ? 2 : 1)
        }
        guard let subcommand = words.first else { return true }
        return ["list", "show", "history", "info", "export"].contains(subcommand)
            || (subcommand == "import" && arguments.contains("--dry-run"))
    }

    func callAsFunction(_ arguments: String...) async throws -> ChildProcess.Result {
        try await run(arguments)
    }

    /// An import file of `count` albums with titles `prefix 0` … (and a body of `padding` characters
    /// in the genre, to fill pages).
    static func importFile(count: Int, prefix: String = "Album", padding: Int = 0) -> Data {
        let albums: [[String: Any]] = (0..<count).map { number in
            [
                "title": "\(prefix) \(number)",
                "artist": "Artist \(number % 7)",
                "genre": String(repeating: "g", count: padding),
                "year": 1950 + number % 70,
            ]
        }
        return (try? JSONSerialization.data(withJSONObject: albums)) ?? Data()
    }

    /// Checks a failed run reports clearly: exit 1 or 2, one or more lines on stderr starting
    /// `albums:`, no crash report, nothing on stdout.
    static func expectClearFailure(
        _ result: ChildProcess.Result, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect([1, 2].contains(result.status), "\(context): \(result)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("albums: "), "\(context): \(result)", sourceLocation: sourceLocation)
        #expect(result.error.hasSuffix("\n"), "\(context): \(result)", sourceLocation: sourceLocation)
        #expect(
            !result.error.contains("Fatal error") && !result.error.contains("Stack dump"), "\(context): \(result)",
            sourceLocation: sourceLocation)
    }

    /// Checks a run neither crashed nor hung.
    static func expectNoCrash(
        _ result: ChildProcess.Result, _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!result.timedOut, "\(context): hung: \(result)", sourceLocation: sourceLocation)
        #expect(!result.wasSignaled, "\(context): crashed: \(result)", sourceLocation: sourceLocation)
        #expect(!result.error.contains("Fatal error"), "\(context): \(result)", sourceLocation: sourceLocation)
    }
}
