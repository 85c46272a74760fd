import Testing

@testable import AlbumsApp

/// `albums serve`'s options: checked words, one-line usage errors.
@Suite struct ServeCommandLineTests {
    @Test func defaultsAreLoopbackOnPort8080WithoutAToken() throws {
        let request = try CommandLineParser.parse(["albums", "serve"])
        #expect(request.action == .serve(ServeOptions()))
        #expect(ServeOptions().host == "127.0.0.1" && ServeOptions().port == 8080 && ServeOptions().token == nil)
        #expect(!request.action.isMutating)
    }

    @Test func optionsAreTaken() throws {
        let request = try CommandLineParser.parse([
            "albums", "--db", "/tmp/x.sqlite", "serve", "--port", "0", "--host", "0.0.0.0", "--token", "abcdefgh12",
        ])
        #expect(request.action == .serve(ServeOptions(port: 0, host: "0.0.0.0", token: "abcdefgh12")))
        #expect(request.options.databasePath == "/tmp/x.sqlite")
        #expect(ServeOptions().maximumEventStreams == 256)
        let limited = try CommandLineParser.parse(["albums", "serve", "--max-streams", "3"])
        #expect(limited.action == .serve(ServeOptions(maximumEventStreams: 3)))
    }

    @Test(arguments: [
        (["--port", "x"], "--port 'x' is not a port number (0 to 65535)"),
        (["--port", "65536"], "--port '65536' is not a port number (0 to 65535)"),
        (["--host", " "], "--host ' ' is not an address"),
        (["--host", "a/b"], "--host 'a/b' is not an address"),
        (["--token", "short"], "--token needs at least 8 printable ASCII characters, without spaces or ';'"),
        (["--token", "with space 123"], "--token needs at least 8 printable ASCII characters, without spaces or ';'"),
        (["--max-streams", "0"], "--max-streams '0' is not a count from 1 to 10000"),
        (["--max-streams", "10001"], "--max-streams '10001' is not a count from 1 to 10000"),
        (["--max-streams", "many"], "--max-streams 'many' is not a count from 1 to 10000"),
    ])
    func badWordsAreOneLineUsageErrors(_ words: [String], _ message: String) {
        do {
            let request = try CommandLineParser.parse(["albums", "serve"] + words)
            Issue.record("parsed \(words) as \(request)")
        } catch {
            #expect(error.message == message)
            #expect(error.command == "serve")
        }
    }
}
