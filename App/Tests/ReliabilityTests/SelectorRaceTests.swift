import Foundation
import Testing

/// An album named by position, id or title while other processes change the library: the album
/// changed is the one the name meant when the change's transaction ran, and what the command
/// prints (`--json`: title, id, position) is what it changed.
///
/// Before changes took an `AlbumReference` resolved inside the transaction, the CLI looked the
/// album up first and then changed "the album at position p": four parallel `delete 1` all printed
/// “Best of Bowie” and deleted four albums, and a delete by title beside adds at position 1
/// deleted another album in 4 rounds of 30. Each round here starts from a copy of one fresh
/// library; `SELECTOR_RACE_ROUNDS` sets the rounds (Scripts/reliability-long.sh runs 100).
@Suite struct SelectorRaceTests {
    static let rounds = ProcessInfo.processInfo.environment["SELECTOR_RACE_ROUNDS"].flatMap(Int.init) ?? 12

    /// One album as `list --json` prints it.
    struct Row: Equatable {
        var id: String
        var title: String
        var position: Int
    }

    /// What `--json` printed for one change.
    struct Printed {
        var command: String
        var step: String
        var id: String
        var position: Int
    }

    @Test func parallelDeletesOfPositionOneEachDeleteAndPrintADifferentAlbum() async throws {
        try await race { original, cli in
            let results = try await Self.parallel((0..<4).map { _ in { try await cli("--json", "delete", "1") } })
            let printed = try results.map { try Self.printed($0, "delete 1") }
            let remaining = try await Self.list(cli)
            let gone = original.filter { row in !remaining.contains { $0.id == row.id } }
            #expect(Set(printed.map(\.id)) == Set(gone.map(\.id)), "\(printed) vs gone \(gone)")
            #expect(printed.count == 4 && gone.count == 4)
            for change in printed {
                let album = try #require(original.first { $0.id == change.id })
                #expect(change.position == 1 && change.step == "Delete “\(album.title)”", "\(change)")
            }
        }
    }

    @Test(arguments: ["title", "id", "position"])
    func aDeleteBesideAddsAtPositionOneDeletesTheAlbumItNamedAndSaysSo(selector: String) async throws {
        try await race { original, cli in
            let target = original[3]  // “Staring at the Sun” in the default library
            let name = selector == "title" ? target.title : selector == "id" ? target.id : "\(target.position)"
            let results = try await Self.parallel(
                [{ try await cli("--json", "delete", name) }]
                    + (0..<3).map { index in
                        { try await cli("add", "--title", "New \(index)", "--artist", "Racer", "--at", "1") }
                    }
            )
            for result in results.dropFirst() { #expect(result.status == 0, "\(result)") }
            let deleted = try Self.printed(results[0], "delete \(name)")
            let steps = try await Self.steps(cli)
            let addsBefore = try #require(steps.firstIndex { $0.hasPrefix("Delete") }, "\(steps)")
            // What the name meant when the delete's transaction ran: by title or id always the
            // target; by position 4, what was fourth after the adds committed before it (each at 1).
            let meant =
                selector != "position"
                ? target.title
                : addsBefore >= 4
                    ? String(steps[0].dropFirst("Add “".count).dropLast()) : original[3 - addsBefore].title
            #expect(deleted.step == "Delete “\(meant)”", "\(deleted), steps \(steps)")
            #expect(deleted.position == (selector == "position" ? 4 : target.position + addsBefore), "\(deleted)")
            if selector != "position" { #expect(deleted.id == target.id, "\(deleted)") }
            // It, and only it, is gone.
            let remaining = try await Self.list(cli)
            #expect(remaining.count == original.count - 1 + 3)
            #expect(!remaining.contains { $0.id == deleted.id || $0.title == meant }, "\(remaining)")
            for row in original where row.id != deleted.id {
                #expect(remaining.contains { $0.id == row.id }, "\(row.title) is gone too")
            }
        }
    }

    @Test func anEditByIDBesideAddsAtPositionOneRenamesThatAlbumOnly() async throws {
        try await race { original, cli in
            let target = original[2]
            let results = try await Self.parallel(
                [{ try await cli("--json", "edit", target.id, "--title", "Renamed") }]
                    + (0..<3).map { index in
                        { try await cli("add", "--title", "New \(index)", "--artist", "Racer", "--at", "1") }
                    }
            )
            let edited = try Self.printed(results[0], "edit")
            let steps = try await Self.steps(cli)
            let addsBefore = try #require(steps.firstIndex { $0.hasPrefix("Edit") }, "\(steps)")
            let remaining = try await Self.list(cli)
            #expect(edited.id == target.id && edited.position == target.position + addsBefore, "\(edited)")
            #expect(remaining.filter { $0.title == "Renamed" }.map(\.id) == [target.id])
            for row in original where row.id != target.id {
                #expect(remaining.contains { $0.id == row.id && $0.title == row.title }, "\(row.title) changed")
            }
        }
    }

    // MARK: - Rounds

    /// Runs `body` `rounds` times, each on a fresh copy of one new default library.
    private func race(_ body: ([Row], AlbumsCLI) async throws -> Void) async throws {
        let folder = try ChildProcess.makeFolder("selector-race")
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = folder.appendingPathComponent("template.sqlite").path
        let created = try await AlbumsCLI(database: template)("list")
        try #require(created.status == 0, "\(created)")
        let original = try await Self.list(AlbumsCLI(database: template))
        try #require(original.count == 5 && original[3].title == "Staring at the Sun")
        for round in 0..<Self.rounds {
            let path = folder.appendingPathComponent("round-\(round).sqlite").path
            try FileManager.default.copyItem(atPath: template, toPath: path)
            // A generous deadline: four debug processes queue on one write lock on a busy machine.
            try await body(original, AlbumsCLI(database: path))
        }
    }

    /// Runs the calls at once and returns their results in the calls' order.
    static func parallel(
        _ calls: [@Sendable () async throws -> ChildProcess.Result]
    ) async throws -> [ChildProcess.Result] {
        try await withThrowingTaskGroup(of: (Int, ChildProcess.Result).self) { group in
            for (index, call) in calls.enumerated() { group.addTask { (index, try await call()) } }
            var results = [ChildProcess.Result?](repeating: nil, count: calls.count)
            for try await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    static func printed(_ result: ChildProcess.Result, _ context: String) throws -> Printed {
        try #require(result.status == 0, "\(context): \(result)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result)")
        return Printed(
            command: object["command"] as? String ?? "", step: object["step"] as? String ?? "",
            id: object["id"] as? String ?? "", position: object["position"] as? Int ?? 0)
    }

    static func list(_ cli: AlbumsCLI) async throws -> [Row] {
        let result = try await cli("--json", "list")
        try #require(result.status == 0, "\(result)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        return rows.map {
            Row(
                id: $0["id"] as? String ?? "", title: $0["title"] as? String ?? "",
                position: $0["position"] as? Int ?? 0)
        }
    }

    /// The texts of the history's steps, oldest first.
    static func steps(_ cli: AlbumsCLI) async throws -> [String] {
        let result = try await cli("--json", "history")
        try #require(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return (object["steps"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }
}
