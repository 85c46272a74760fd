#if PostgreSQL
/// Schema versions on PostgreSQL, migrated as SQLite's are: in order, all in one transaction.
extension PostgreSQLConnection {
    /// Brings `schema` up to its last version: runs the migrations the database has not run yet,
    /// in order, in one transaction, and records the version reached.
    ///
    /// Clients migrating at once (two machines starting the same release) take their turn on an
    /// advisory lock held for the transaction: the second finds the work done. A database whose
    /// recorded version is newer than the program's is refused, and nothing is changed. A database
    /// already at the schema's version is only read (one statement, no transaction): opening a
    /// history or a library each time writes nothing and waits for no one.
    ///
    /// - Parameter schema: The schema.
    /// - Returns: The version the database held before, and the one it holds now.
    /// - Throws: ``PostgreSQLError/Code/newerSchema``, ``PostgreSQLError/Code/invalidValue`` for
    ///   migrations not numbered 1, 2, 3…, or what a migration threw (all rolled back).
    @discardableResult
    public func migrate(_ schema: PostgreSQLSchema) throws -> (from: Int, to: Int) {
        for (offset, migration) in schema.migrations.enumerated() where migration.version != offset + 1 {
            throw PostgreSQLError(
                .invalidValue,
                "schema \(schema.identifier): migration “\(migration.name)” is numbered \(migration.version), expected \(offset + 1)"
            )
        }
        // Up to date (every open but the first): one read, no transaction, no write to wait for.
        let current = try schemaVersion(of: schema.identifier)
        if current == schema.version { return (current, current) }
        return try inTransaction(.readCommitted) {
            // One migrator at a time, whichever schema: released at commit or rollback.
            _ = try query("SELECT pg_advisory_xact_lock($1)", [Self.migrationLockKey])
            try execute(
                "CREATE TABLE IF NOT EXISTS commandkit_schema (identifier text PRIMARY KEY, version integer NOT NULL)")
            let recorded =
                try query("SELECT version FROM commandkit_schema WHERE identifier = $1", [schema.identifier])
                .first?.decode(Int.self, at: 0) ?? 0
            guard recorded <= schema.version else {
                throw PostgreSQLError(
                    .newerSchema,
                    "\(displayName) holds schema \(schema.identifier) version \(recorded), newer than this program's \(schema.version): use a newer release"
                )
            }
            for migration in schema.migrations where migration.version > recorded {
                try migration.body(self)
            }
            try execute(
                """
                INSERT INTO commandkit_schema (identifier, version) VALUES ($1, $2)
                ON CONFLICT (identifier) DO UPDATE SET version = excluded.version
                """,
                [schema.identifier, schema.version])
            return (recorded, schema.version)
        }
    }

    /// The schema version `identifier` has reached in this database (0 when it has none).
    ///
    /// - Throws: A ``PostgreSQLError``.
    public func schemaVersion(of identifier: String) throws(PostgreSQLError) -> Int {
        let exists = try query("SELECT to_regclass('commandkit_schema') IS NOT NULL")
        guard try exists.first?.decode(Bool.self, at: 0) == true else { return 0 }
        return try query("SELECT version FROM commandkit_schema WHERE identifier = $1", [identifier])
            .first?.decode(Int.self, at: 0) ?? 0
    }

    /// The advisory lock migrations take ("CKschema" in ASCII): any 64-bit number no other code
    /// of the database's users takes.
    static let migrationLockKey: Int64 = 0x434B_7363_6865_6D61
}
#endif
