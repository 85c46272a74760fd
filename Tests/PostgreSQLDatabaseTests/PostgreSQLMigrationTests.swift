#if PostgreSQL
import Foundation
import PostgreSQLDatabase
import Testing

/// Schema versions on a real server: in order, once, all or nothing, one migrator at a time, and
/// a database a newer release migrated is refused.
@Suite(.enabled(if: PostgreSQLServer.isEnabled, "COMMANDKIT_POSTGRES_URL names no server (Scripts/postgres.sh start)"))
struct PostgreSQLMigrationTests {
    /// A schema whose migrations log each run, so a migration run twice would show.
    static func schema(_ identifier: String, versions: Int, failingAt failing: Int? = nil) -> PostgreSQLSchema {
        PostgreSQLSchema(
            identifier: identifier,
            migrations: (1...versions).map { version in
                PostgreSQLMigration(version: version, name: "step \(version)") { connection in
                    if version == 1 { try connection.execute("CREATE TABLE migration_log (version int NOT NULL)") }
                    try connection.execute("INSERT INTO migration_log VALUES ($1)", [version])
                    if version == failing { try connection.execute("SELECT no_such_column FROM migration_log") }
                }
            })
    }

    static func log(_ connection: PostgreSQLConnection) throws -> [Int] {
        try connection.query("SELECT version FROM migration_log ORDER BY version").compactMap {
            try $0.decode(Int.self, at: 0)
        }
    }

    @Test func migrationsRunInOrderOnceAndAreRecorded() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        #expect(try connection.schemaVersion(of: "albums") == 0)
        #expect(try connection.migrate(Self.schema("albums", versions: 2)) == (0, 2))
        #expect(try connection.migrate(Self.schema("albums", versions: 2)) == (2, 2))
        #expect(try connection.migrate(Self.schema("albums", versions: 3)) == (2, 3))
        #expect(try Self.log(connection) == [1, 2, 3])
        #expect(try connection.schemaVersion(of: "albums") == 3)
    }

    @Test func aFailingMigrationLeavesNothingAndANewerDatabaseIsRefused() throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let failed = #expect(throws: PostgreSQLError.self) {
            try connection.migrate(Self.schema("albums", versions: 3, failingAt: 2))
        }
        #expect(failed?.sqlState == "42703", "\(String(describing: failed))")
        // DDL is transactional: not even the table of migration 1 is left.
        #expect(try connection.schemaVersion(of: "albums") == 0)
        #expect(try connection.query("SELECT to_regclass('migration_log') IS NULL")[0].decode(Bool.self, at: 0) == true)

        try connection.migrate(Self.schema("albums", versions: 3))
        let newer = #expect(throws: PostgreSQLError.self) { try connection.migrate(Self.schema("albums", versions: 2)) }
        #expect(
            newer?.code == .newerSchema && newer?.message.contains("version 3, newer than this program's 2") == true)
        #expect(try Self.log(connection) == [1, 2, 3])
        let misnumbered = PostgreSQLSchema(
            identifier: "albums", migrations: [PostgreSQLMigration(version: 2, name: "two", statements: [])])
        #expect(throws: PostgreSQLError.self) { try connection.migrate(misnumbered) }
    }

    /// Four clients start at once on an empty database: each migration runs once, whoever wins.
    @Test func clientsMigratingAtOnceTakeTurns() async throws {
        let (connection, schema) = try PostgreSQLServer.connect()
        defer { PostgreSQLServer.drop(schema, using: connection) }
        let ranges = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let client = try PostgreSQLServer.connect(toSchema: schema)
                    let (from, to) = try client.migrate(Self.schema("albums", versions: 4))
                    return [from, to]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ranges.filter { $0 == [0, 4] }.count == 1 && ranges.filter { $0 == [4, 4] }.count == 3, "\(ranges)")
        #expect(try Self.log(connection) == [1, 2, 3, 4])
    }
}
#endif
