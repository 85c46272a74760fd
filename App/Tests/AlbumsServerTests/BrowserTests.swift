import Foundation
import TestSupport
import Testing

/// The page in a real browser: headless Chromium driven by Selenium from Python
/// (`browser_test.py`), against a real `albums serve` on 127.0.0.1. Screenshots are kept in
/// `App/.build/browser-screenshots`. Skipped where Chromium, its driver or Selenium is missing,
/// except in CI (`CI=true`), where that is a failure.
@Suite("albums serve: the page in Chromium")
struct BrowserTests {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The Python with Selenium: the system's (Debian's python3-selenium, what CI installs), else
    /// the first `python3` on the path.
    static let python: String? = {
        for candidate in ["/usr/bin/python3", "python3"] where runs(candidate, ["-c", "import selenium"]) {
            return candidate
        }
        return nil
    }()

    static var hasBrowser: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    }

    static var isAvailable: Bool { hasBrowser && python != nil }

    @Test(
        "open, delete, undo, reload, two windows, a CLI change, a stale undo, keyboard only, edit, move, search, phone size; two authors' undo mine",
        .enabled(if: isAvailable || isCI, "Chromium, chromedriver and Selenium are not installed"))
    func pageInChromium() async throws {
        try #require(Self.hasBrowser, "CI needs /usr/bin/chromium and /usr/bin/chromedriver (chromium-driver)")
        let python = try #require(Self.python, "CI needs Selenium for Python (python3-selenium)")
        // A heartbeat every 300 ms: the page's watch for a quiet stream is tested in seconds.
        let server = try await ServerProcess(environment: ["ALBUMS_TEST_EVENT_HEARTBEAT_MS": "300"])
        defer { Task { await server.finish() } }
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let screenshots = tests.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/browser-screenshots")
        let log = server.folder.appendingPathComponent("browser.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            python, tests.appendingPathComponent("browser_test.py").path, server.url,
            ServerProcess.executable.path, server.database, screenshots.path,
            String(server.process.processIdentifier),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SE_AVOID_STATS"] = "true"
        environment["ALBUMS_DB"] = nil
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: log.path)
        process.standardError = FileHandle(forWritingAtPath: log.path)
        let exit = try await ProcessExit.run(process, timeout: Patience.childProcess)
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!exit.timedOut && process.terminationStatus == 0, "\(output)\nserver: \(server.standardError)")
        for scenario in [
            "page opened", "deleted with the toolbar", "undone", "reload", "two windows", "a CLI change",
            "a stale undo is refused", "keyboard only", "edit, move and search", "phone size",
            "a quiet stream is noticed", "two authors",
            "a conflict", "a bad name is refused",
        ] {
            #expect(output.contains("ok: \(scenario)"), "\(scenario) did not pass:\n\(output)")
        }
        for name in ["desktop-1280x800", "phone-390x844", "stale-refused", "two-authors-ada", "two-authors-conflict"] {
            let path = screenshots.appendingPathComponent("\(name).png").path
            #expect(FileManager.default.fileExists(atPath: path), "no screenshot \(name)")
        }
    }

    private static func runs(_ program: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
