import CommandStore
import SQLiteDatabase
import Testing

@Suite struct TransactionTests {
    struct Failure: Error, Equatable { var step: Int }

    func makeDatabase() throws -> Database {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t (x INTEGER NOT NULL)")
        return db
    }

    func values(_ db: Database) throws -> [Int] {
        try db.fetchAll("SELECT x FROM t ORDER BY rowid").map { try $0.decode(Int.self, at: 0) }
    }

    @Test func commitKeepsChanges() throws {
        let db = try makeDatabase()
        try db.inTransaction {
            #expect(db.isInsideTransaction)
            try db.execute("INSERT INTO t VALUES (?)", [1])
            return .commit
        }
        #expect(!db.isInsideTransaction)
        #expect(try values(db) == [1])
    }

    @Test func rollbackDiscardsChanges() throws {
        let db = try makeDatabase()
        try db.inTransaction {
            try db.execute("INSERT INTO t VALUES (?)", [1])
            return .rollback
        }
        #expect(try values(db).isEmpty)
    }

    @Test func throwingRollsBackAndRethrowsTheFirstError() throws {
        let db = try makeDatabase()
        #expect(throws: Failure(step: 1)) {
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (?)", [1])
                throw Failure(step: 1)
            }
        }
        #expect(try values(db).isEmpty)
        #expect(!db.isInsideTransaction)
        // A database error inside the body is rethrown as is.
        #expect {
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (?)", [1])
                try db.execute("INSERT INTO t VALUES (?)", [DatabaseValue.null])
                return .commit
            }
        } throws: { ($0 as? DatabaseError)?.resultCode == .constraintNotNull }
        #expect(try values(db).isEmpty)
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        let db = try makeDatabase()
        try db.inTransaction {
            try db.execute("INSERT INTO t VALUES (?)", [1])
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (?)", [2])
                return .rollback
            }
            try? db.inSavepoint {
                try db.execute("INSERT INTO t VALUES (?)", [3])
                throw Failure(step: 3)
            }
            try db.inSavepoint {
                try db.execute("INSERT INTO t VALUES (?)", [4])
                try db.inSavepoint {
                    try db.execute("INSERT INTO t VALUES (?)", [5])
                    return .commit
                }
                return .commit
            }
            return .commit
        }
        #expect(try values(db) == [1, 4, 5])
    }

    @Test func outerRollbackDiscardsCommittedSavepoints() throws {
        let db = try makeDatabase()
        try db.inTransaction {
            try db.inSavepoint {
                try db.execute("INSERT INTO t VALUES (?)", [1])
                return .commit
            }
            return .rollback
        }
        #expect(try values(db).isEmpty)
    }

    @Test func savepointOutsideTransactionIsATransaction() throws {
        let db = try makeDatabase()
        try db.inSavepoint {
            #expect(db.isInsideTransaction)
            try db.execute("INSERT INTO t VALUES (?)", [1])
            return .commit
        }
        #expect(!db.isInsideTransaction)
        #expect(try values(db) == [1])
    }

    @Test func failedCommitRollsBack() throws {
        let db = try Database.inMemory()
        try db.execute(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)
            """)
        #expect {
            try db.inTransaction {
                try db.execute("INSERT INTO child VALUES (?)", [42])
                return .commit
            }
        } throws: { ($0 as? DatabaseError)?.resultCode.primaryResultCode == .constraint }
        #expect(!db.isInsideTransaction)
        #expect(try db.fetchOne("SELECT count(*) FROM child")?[0] == 0)
    }
}
