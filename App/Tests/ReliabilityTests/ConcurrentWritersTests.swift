import CommandStore
import Foundation
import SQLiteDatabase
import Testing

/// Several `albums` processes changing one library at once.
///
/// Every acknowledged add (exit 0) is in the library exactly once, every refused one is absent, the
/// history holds one step per acknowledged add, and a process that cannot get the write lock in time
/// says so. `RELIABILITY_LONG=1` runs the long form (4 writers × 250 adds).
@Suite struct ConcurrentWritersTests {
    static var isLong: Bool { ProcessInfo.processInfo.environment["RELIABILITY_LONG"] == "1" }

    struct Export: Decodable {
        var title: String
    }

    struct History: Decodable {
        struct Step: Decodable {
            var done: Bool
            var text: String
        }
        var current: Int
        var steps: [Step]
    }

    @Test func concurrentAddsAreEachAppliedOnceAndRecordedOnce() async throws {
        let folder = try ChildProcess.makeFolder("concurrent")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        #expect(try await cli("list").status == 0)  // creates the library
        let baseline = try JSONDecoder().decode([Export].self, from: Data(try await cli("export").output.utf8)).count
        let writers = Self.isLong ? 4 : 3
        let adds = Self.isLong ? 250 : DamagedLibraryTests.isSanitized ? 20 : 60
        let all = await withTaskGroup(of: [(String, ChildProcess.Result?)].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var results: [(String, ChildProcess.Result?)] = []
                    for number in 0..<adds {
                        let title = "w\(writer)-\(number)"
                        results.append((title, try? await cli("add", "--title", title, "--artist", "Writer \(writer)")))
                    }
                    return results
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(all.count == writers * adds)
        var acknowledged: Set<String> = []
        for (title, result) in all {
            guard let result else {
                Issue.record("\(title): the process did not run")
                continue
            }
            AlbumsCLI.expectNoCrash(result, title)
            if result.status == 0 {
                acknowledged.insert(title)
            } else {
                // Only a lock timeout may refuse an add here, and it must say so.
                AlbumsCLI.expectClearFailure(result, title)
                #expect(result.error.contains("lock") || result.error.contains("busy"), "\(title): \(result)")
            }
        }
        let titles = try JSONDecoder().decode([Export].self, from: Data(try await cli("export").output.utf8)).map(
            \.title)
        #expect(
            titles.count == baseline + acknowledged.count,
            "\(titles.count) albums for \(acknowledged.count) acknowledged adds")
        let added = titles.filter { $0.hasPrefix("w") && $0.contains("-") }
        #expect(
            Set(added) == acknowledged,
            "acknowledged but missing: \(acknowledged.subtracting(added).sorted().prefix(10))")
        #expect(
            added.count == Set(added).count,
            "applied twice: \(Dictionary(grouping: added) { $0 }.filter { $0.value.count > 1 }.keys.sorted().prefix(10))"
        )
        let history = try JSONDecoder().decode(History.self, from: Data(try await cli("--json", "history").output.utf8))
        let steps = history.steps.filter { $0.text.hasPrefix("Add “w") }
        #expect(
            steps.count == acknowledged.count && steps.allSatisfy(\.done),
            "\(steps.count) history steps for \(acknowledged.count) adds")
        #expect(Set(steps.map { String($0.text.dropFirst(5).dropLast()) }) == acknowledged)
        let db = try Database.openStore(path: cli.database, schemas: [])
        defer { db.close() }
        try db.checkIntegrity()
        print(
            "ConcurrentWritersTests: \(writers) writers × \(adds) adds: \(acknowledged.count) acknowledged, \(all.count - acknowledged.count) refused (lock timeout), all present once, history agrees"
        )
    }

    @Test func aWriterThatCannotGetTheLockSaysSo() async throws {
        let folder = try ChildProcess.makeFolder("locked")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = AlbumsCLI(database: folder.path + "/library.db")
        #expect(try await cli("list").status == 0)
        let holder = try Database.openStore(path: cli.database, schemas: [])
        try holder.execute("BEGIN IMMEDIATE")
        let blocked = try await cli("add", "--title", "Blocked", "--artist", "Nobody")
        // Readers are not blocked by a writer (WAL).
        let reader = try await cli("list")
        try holder.execute("ROLLBACK")
        holder.close()
        AlbumsCLI.expectNoCrash(blocked, "blocked add")
        AlbumsCLI.expectClearFailure(blocked, "blocked add")
        #expect(blocked.error.contains("lock") || blocked.error.contains("busy"), "\(blocked)")
        #expect(blocked.error.contains("library.db"), "\(blocked)")
        #expect(reader.status == 0, "\(reader)")
        #expect(try await !cli("export").output.contains("Blocked"))
        #expect(try await cli("add", "--title", "Later", "--artist", "Somebody").status == 0)
    }
}
