#if PostgreSQL
package import CommandStore
package import PostgreSQLDatabase

/// The receiver of the PostgreSQL tests: lines in a table, written through the history's connection.
package final class PostgreSQLLines {
    /// What ``failCountdown`` throws.
    package struct Failure: Error {}

    /// A command call, as ``hook`` sees it.
    package enum Call: Sendable { case redo, undo }

    package static let schema = PostgreSQLSchema(
        identifier: "lines",
        migrations: [
            PostgreSQLMigration(
                version: 1, name: "lines",
                statements: ["CREATE TABLE line (position bigserial PRIMARY KEY, value text NOT NULL)"])
        ])

    package static var registry: CommandRegistry<PostgreSQLLines> {
        var registry = CommandRegistry<PostgreSQLLines>()
        registry.register(PostgreSQLLine.self)
        return registry
    }

    package let connection: PostgreSQLConnection
    /// `k > 0`: the k-th command call from now throws ``Failure`` after writing.
    package var failCountdown = 0
    /// Runs inside each command call, after its write (fault injection).
    package var hook: ((Call) throws -> Void)?

    /// Creates the line table (once per schema) on `connection`.
    package init(connection: PostgreSQLConnection) throws {
        self.connection = connection
        try connection.migrate(Self.schema)
    }

    /// The lines, in order.
    package func lines() throws -> [String] {
        try connection.query("SELECT value FROM line ORDER BY position").map { try $0.decode(String.self, at: 0) ?? "" }
    }

    /// Runs the hook, then counts the call down to an injected failure (for commands of a test's own).
    package func tick(_ call: Call) throws {
        try hook?(call)
        guard failCountdown > 0 else { return }
        failCountdown -= 1
        if failCountdown == 0 { throw Failure() }
    }
}

/// Appends a line; undo removes the last one. A failure is injected after the write, so a failed
/// call shows its write rolled back.
package struct PostgreSQLLine: PersistentCommand {
    package static let kind = "test.line"
    package var line: String
    package var significant = true
    /// Set only in a stored payload, by a test: the command is obsolete then.
    package var retired: Bool?

    package init(line: String, significant: Bool = true, retired: Bool? = nil) {
        self.line = line
        self.significant = significant
        self.retired = retired
    }

    package var text: String { "Add \(line)" }
    package var actionText: String { "Add Line" }
    package var isSignificant: Bool { significant }
    package var isObsolete: Bool { retired == true }

    package func redo(on lines: PostgreSQLLines) throws {
        try lines.connection.execute("INSERT INTO line (value) VALUES ($1)", [line])
        try lines.tick(.redo)
    }

    package func undo(on lines: PostgreSQLLines) throws {
        try lines.connection.execute("DELETE FROM line WHERE position = (SELECT max(position) FROM line)")
        try lines.tick(.undo)
    }
}
#endif
