import Foundation
import Testing

/// No SQL is built from input: every value reaches SQLite as a bound `?` parameter.
///
/// The test reads every Swift file of the shipped modules. A string literal that reads as SQL may
/// interpolate only the expressions listed here, each a constant or an enum the code controls, and
/// may not be joined to other strings with `+`. Adding an entry needs the reason it is safe.
@Suite struct SQLSafetyTests {
    /// `file: expression` → why it cannot carry input.
    static let allowedInterpolations: [String: String] = [
        "StoreSchema.swift: applicationID": "a static Int32 constant",
        "StoreSchema.swift: versionTable": "a static table-name constant",
        "Database+Store.swift: StoreSchema.versionTable": "a static table-name constant",
        "DurableHistory.swift: Self.macroSavepoint": "a static savepoint-name constant",
        "SQLiteHistoryStorage.swift: placeholders": "one `?` per registered kind (the kinds are bound)",
        "Database+Transactions.swift: kind.rawValue": "TransactionKind's raw values: DEFERRED, IMMEDIATE, EXCLUSIVE",
        "Database+Transactions.swift: name": "\"commandstore_savepoint_\" followed by an integer depth",
        "Database+Transactions.swift: savepoint": "the same savepoint name",
        "Database.swift: configuration.foreignKeysEnabled ? \"ON\" : \"OFF\"": "one of two keywords",
        "Database.swift: configuration.synchronous.rawValue": "Synchronous's raw values: OFF, NORMAL, FULL, EXTRA",
        "LibraryAPI.swift: Self.columns": "a static list of column names",
        "LibraryAPI+Search.swift: Self.columns": "a static list of column names",
        "LibraryAPI+TitleMatch.swift: Self.columns": "a static list of column names",
        "LibraryAPI+Query.swift: Self.columns": "a static list of column names",
        "LibraryAPI+Query.swift: condition.sql":
            "QueryCondition's SQL: assembled in QueryCondition.swift from its constant fragments only, every value bound",
        "LibraryAPI+Streaming.swift: Self.columns": "a static list of column names",
        "PostgreSQLAlbums.swift: Self.columns": "a static list of column names",
        "PostgreSQLAlbums+Query.swift: Self.columns": "a static list of column names",
        "PostgreSQLAlbums+Query.swift: condition.sql":
            "PostgreSQLQueryCondition's SQL: assembled in PostgreSQLQueryCondition.swift from its constant fragments and $n placeholders only, every value bound",
        "LibraryAPI+ImportStaging.swift: table.rawValue": "BatchTable's raw values: import_batch, replaced_album",
        "PostgreSQLAlbums+Imports.swift: table.rawValue": "BatchTable's raw values: import_batch, replaced_album",
        "PostgreSQLConnection+DeferredWrites.swift: write.sql":
            "a deferred write's own SQL (its values bound), wrapped so that changing no row fails on the server",
        "PostgreSQLConnection+Transactions.swift: isolation.rawValue":
            "Isolation's raw values: READ COMMITTED, REPEATABLE READ, SERIALIZABLE",
        "HistoryStatements.swift: header":
            "<prefix>_header, the prefix checked in HistoryStatements.init to be [a-z_][a-z0-9_]*, at most 48 bytes",
        "HistoryStatements.swift: entry": "<prefix>_entry, the same checked prefix",
        "HistoryStatements+Branches.swift: header": "<prefix>_header, the prefix checked in HistoryStatements.init",
        "HistoryStatements+Branches.swift: entry": "<prefix>_entry, the same checked prefix",
        "HistoryStatements+Branches.swift: branch": "<prefix>_branch, the same checked prefix",
        "HistoryStatements+Branches.swift: movedColumns": "a constant list of column names",
        "PostgreSQLConnection+Notifications.swift: quoted":
            "a channel name quoted as an identifier by libpq's PQescapeIdentifier (LISTEN takes no parameters)",
    ]

    /// The shipped modules (not benchmarks, fuzzers or test helpers).
    static let modules = [
        "CommandKit", "LaunchKit", "SQLiteDatabase", "CommandStore", "AlbumLibrary", "PostgreSQLDatabase",
        "PostgreSQLCommandStore", "AlbumsApp", "albums",
    ]

    @Test func noSQLIsBuiltFromValues() throws {
        var findings: [String] = []
        var sqlLiterals = 0
        for module in Self.modules {
            let sources = ["AlbumsApp", "albums"].contains(module) ? "App/Sources" : "Sources"
            let folder = ChildProcess.repositoryRoot.appendingPathComponent("\(sources)/\(module)")
            guard FileManager.default.fileExists(atPath: folder.path),
                let files = FileManager.default.enumerator(atPath: folder.path)
            else {
                findings.append("\(folder.path): no such folder (a module moved?)")
                continue
            }
            for case let file as String in files where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let name = (file as NSString).lastPathComponent
                for literal in SQLLiteralScanner.sqlLiterals(in: source) {
                    sqlLiterals += 1
                    for expression in literal.interpolations
                    where Self.allowedInterpolations["\(name): \(expression)"] == nil {
                        findings.append(
                            "\(module)/\(file):\(literal.line): SQL interpolates \\(\(expression)): \(literal.text.prefix(100))"
                        )
                    }
                    if literal.isConcatenated {
                        findings.append(
                            "\(module)/\(file):\(literal.line): SQL joined with +: \(literal.text.prefix(100))")
                    }
                }
            }
        }
        #expect(
            findings.isEmpty, "SQL built from values (bind a ? parameter instead):\n\(findings.joined(separator: "\n"))"
        )
        // The scan must have seen the store's SQL, or it proves nothing.
        #expect(sqlLiterals >= 20, "only \(sqlLiterals) SQL literals found: is the scanner reading Sources?")
    }

    @Test(arguments: [
        #"try db.execute("SELECT * FROM album WHERE title = '\(title)'")"#,
        #"try db.execute("DELETE FROM album WHERE id = " + id)"#,
        "try db.execute(\"\"\"\n    UPDATE album\n    SET title = \\(newTitle)\n    \"\"\")",
        #"let sql = "INSERT INTO t VALUES (\(values.map { "\($0)" }.joined()))""#,
    ])
    func scannerFlagsBuiltSQL(source: String) {
        let literals = SQLLiteralScanner.sqlLiterals(in: source)
        #expect(literals.contains { !$0.interpolations.isEmpty || $0.isConcatenated }, "not flagged: \(source)")
    }

    @Test(arguments: [
        #"try db.execute("SELECT * FROM album WHERE title = ?", [title])"#,
        #"// try db.execute("SELECT \(x)")"#,
        #"let message = "Delete “\(album.title)”""#,
    ])
    func scannerPassesBoundSQLAndProse(source: String) {
        let literals = SQLLiteralScanner.sqlLiterals(in: source)
        #expect(literals.allSatisfy { $0.interpolations.isEmpty && !$0.isConcatenated }, "flagged: \(source)")
    }
}
