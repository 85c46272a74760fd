import AlbumsApp

/// One fuzz case: the input split at NUL bytes into command-line arguments (as `argv` is), parsed.
///
/// Every command line must either parse or throw a `UsageError` with a message; a crash, a hang or
/// an empty message is a bug.
enum CLIArgumentsFuzzer {
    static func run(_ bytes: [UInt8]) {
        let words = bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(32)
        let arguments = ["albums"] + words.map { String(decoding: $0, as: UTF8.self) }
        do {
            _ = try CommandLineParser.parse(arguments)
        } catch {
            guard !error.message.isEmpty, !error.description.isEmpty else {
                fatalError("a usage error without a message for \(arguments)")
            }
        }
    }
}
