import Foundation

/// The plain (non-libFuzzer) entry point of a fuzz target: runs the fuzz body on files.
///
/// Each argument is a file, run as one fuzz case, or a folder, whose files are each run (sorted by
/// name). A crash therefore names the input that caused it, and a test can replay a committed
/// corpus or crasher by running the target's binary on it. Prints how many cases ran.
public enum FuzzReplay: Sendable {
    /// Replays the inputs named by `arguments` (the first, the program's path, is skipped).
    ///
    /// - Parameters:
    ///   - name: The target's name, for messages.
    ///   - arguments: `CommandLine.arguments`.
    ///   - body: One fuzz case.
    /// - Returns: Never: exits 0 after the last case, or 2 when an argument cannot be read.
    public static func main(name: String, arguments: [String], body: ([UInt8]) -> Void) -> Never {
        let paths = Array(arguments.dropFirst())
        guard !paths.isEmpty else {
            say("usage: \(name) FILE_OR_FOLDER...  (replays fuzz inputs; build with Scripts/fuzz.sh to fuzz)\n")
            exit(2)
        }
        var cases = 0
        for path in paths {
            guard let files = inputs(at: path) else {
                say("\(name): cannot read \(path)\n")
                exit(2)
            }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    say("\(name): cannot read \(file)\n")
                    exit(2)
                }
                body(Array(data))
                cases += 1
            }
        }
        print("\(name): replayed \(cases) inputs")
        exit(0)
    }

    private static func inputs(at path: String) -> [String]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return [path] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    private static func say(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
