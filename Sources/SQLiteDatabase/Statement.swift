internal import CSQLite
import Foundation

/// A compiled SQL statement whose values come only from bound parameters.
///
/// Prepare one with ``Database/prepare(_:)`` (you own it) or ``Database/cachedStatement(_:)`` (the
/// connection owns it), then run it any number of times with new arguments. It is finalized when
/// released, or earlier by ``finalize()``. Like its ``Database``, a statement stays in one isolation
/// domain.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO track (album, title) VALUES (?, ?)")
/// for title in titles {
///     try insert.execute([albumID, title])
/// }
/// ```
///
/// Related SQLite documentation: <https://www.sqlite.org/c3ref/stmt.html>
public final class Statement {
    /// The SQL the statement was compiled from.
    public let sql: String
    /// The column names of its result rows (empty for statements that return none).
    public let columnNames: [String]
    /// The number of `?` placeholders to bind.
    public let parameterCount: Int

    private let connection: Connection
    /// Read by every call, written only when finalized; a statement lives in one isolation domain,
    /// so the runtime's exclusivity check on each read would only cost time.
    @exclusivity(unchecked) private var handle: OpaquePointer?
    /// The bound texts and blobs, which SQLite reads in place until the next bind.
    @exclusivity(unchecked) private var arena = BindingArena()

    init(connection: Connection, sql: String, persistent: Bool) throws {
        let database = try connection.openHandle(sql: sql)
        var handle: OpaquePointer?
        var remainder = ""
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let code = sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(database, start, -1, flags, &handle, &tail)
            // The tail points into the C string: read it before the buffer goes away.
            if code == SQLITE_OK, let tail { remainder = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(handle)
            throw connection.error(code, sql: sql)
        }
        guard let handle else {
            throw DatabaseError(
                resultCode: .misuse, message: "the SQL holds no statement", sql: sql, path: connection.path)
        }
        if !remainder.trimmingWhitespace().isEmpty {
            sqlite3_finalize(handle)
            throw DatabaseError(
                resultCode: .misuse,
                message: "the SQL holds more than one statement; prepare them one at a time",
                sql: sql,
                path: connection.path
            )
        }
        self.sql = sql
        self.connection = connection
        self.handle = handle
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
        self.columnNames = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Finalizes the statement now; running it afterwards throws `misuse`. Calling it twice does nothing.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/finalize.html>
    public func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    private func liveHandle() throws -> OpaquePointer {
        _ = try connection.openHandle(sql: sql)
        guard let handle else {
            throw DatabaseError(
                resultCode: .misuse, message: "the statement is finalized", sql: sql, path: connection.path)
        }
        return handle
    }

    /// Resets the statement so it can run again, and clears its bindings.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/reset.html>
    public func reset() throws {
        let handle = try liveHandle()
        // The code sqlite3_reset returns repeats the last step's error, already reported.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds values to the placeholders, in order, replacing earlier bindings.
    ///
    /// - Parameter arguments: Exactly ``parameterCount`` values.
    /// - Throws: ``DatabaseError`` with code `range` when the count is wrong, or SQLite's error.
    public func bind(_ arguments: [any DatabaseValueConvertible]) throws {
        let handle = try liveHandle()
        guard arguments.count == parameterCount else {
            throw DatabaseError(
                resultCode: .range,
                message: "the statement takes \(parameterCount) argument(s), got \(arguments.count)",
                sql: sql,
                path: connection.path
            )
        }
        sqlite3_reset(handle)
        arena.reset()
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.databaseValue, at: Int32(offset + 1), handle: handle)
        }
    }

    /// Binds values already converted, in order: the store's hot path, with no existential per value.
    func bind(values: [DatabaseValue]) throws {
        let handle = try liveHandle()
        guard values.count == parameterCount else {
            throw DatabaseError(
                resultCode: .range,
                message: "the statement takes \(parameterCount) argument(s), got \(values.count)",
                sql: sql,
                path: connection.path
            )
        }
        sqlite3_reset(handle)
        arena.reset()
        var index: Int32 = 1
        for value in values {
            try bind(value, at: index, handle: handle)
            index += 1
        }
    }

    /// Runs the statement to completion with values already converted, discarding any rows.
    package func execute(values: [DatabaseValue]) throws {
        try bind(values: values)
        try step(sqlite3Handle: try liveHandle())
    }

    private func step(sqlite3Handle handle: OpaquePointer) throws {
        defer { sqlite3_reset(handle) }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else { throw connection.error(code, sql: sql) }
    }

    private func bind(_ value: DatabaseValue, at index: Int32, handle: OpaquePointer) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            code = text.withUTF8 { bytes in
                // An empty buffer may have no base address, which SQLite would bind as NULL.
                guard !bytes.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                // The arena's copy stays put until the next bind: SQLite need not copy it (nil: SQLITE_STATIC).
                let copy = arena.copy(UnsafeRawBufferPointer(bytes)).assumingMemoryBound(to: CChar.self)
                return sqlite3_bind_text64(handle, index, copy, UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
            }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                guard !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob64(handle, index, arena.copy(bytes), UInt64(bytes.count), nil)
            }
        }
        try connection.check(code, sql: sql)
    }

    /// Runs the statement to completion with these arguments, discarding any rows.
    ///
    /// - Parameter arguments: Values for the placeholders, in order.
    /// - Throws: ``DatabaseError``.
    public func execute(_ arguments: [any DatabaseValueConvertible] = []) throws {
        try bind(arguments)
        try step(sqlite3Handle: try liveHandle())
    }

    /// Runs the statement and calls `body` with each row, in order.
    ///
    /// Rows are read one at a time, so a long result never sits in memory at once.
    ///
    /// - Parameters:
    ///   - arguments: Values for the placeholders, in order.
    ///   - body: Called once per row; throwing stops the iteration and rethrows.
    /// - Throws: ``DatabaseError``, or what `body` throws.
    public func forEachRow(_ arguments: [any DatabaseValueConvertible] = [], _ body: (Row) throws -> Void) throws {
        try bind(arguments)
        let handle = try liveHandle()
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            try body(currentRow(handle))
        }
    }

    /// Runs the statement and lends `body` each result row in place, to read the columns it needs.
    ///
    /// The fast way through a long result: no ``Row`` is built (see ``ColumnReader``).
    ///
    /// - Parameters:
    ///   - arguments: Values for the placeholders, in order.
    ///   - body: Called once per row; throwing stops the iteration and rethrows.
    /// - Throws: ``DatabaseError``, or what `body` throws.
    public func readEachRow(
        _ arguments: [any DatabaseValueConvertible] = [], _ body: (borrowing ColumnReader) throws -> Void
    ) throws {
        try bind(arguments)
        let handle = try liveHandle()
        defer { sqlite3_reset(handle) }
        let columns = ColumnReader(handle: handle, sql: sql, columnNames: columnNames)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            try body(columns)
        }
    }

    /// Runs the statement and returns every row.
    ///
    /// - Parameter arguments: Values for the placeholders, in order.
    /// - Returns: The rows, in SQLite's order.
    /// - Throws: ``DatabaseError``.
    public func fetchAll(_ arguments: [any DatabaseValueConvertible] = []) throws -> [Row] {
        try bind(arguments)
        let handle = try liveHandle()
        defer { sqlite3_reset(handle) }
        var rows: [Row] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
            rows.append(currentRow(handle))
        }
    }

    /// Runs the statement and returns its first row, if any.
    ///
    /// - Parameter arguments: Values for the placeholders, in order.
    /// - Returns: The first row, or `nil`.
    /// - Throws: ``DatabaseError``.
    public func fetchOne(_ arguments: [any DatabaseValueConvertible] = []) throws -> Row? {
        try bind(arguments)
        let handle = try liveHandle()
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw connection.error(code, sql: sql) }
        return currentRow(handle)
    }

    private func currentRow(_ handle: OpaquePointer) -> Row {
        var values: [DatabaseValue] = []
        values.reserveCapacity(columnNames.count)
        for column in 0..<Int32(columnNames.count) {
            values.append(ColumnReader.value(handle, column))
        }
        return Row(columnNames: columnNames, values: values, sql: sql)
    }
}

@available(*, unavailable, message: "A Statement belongs to its Database's isolation domain.")
extension Statement: Sendable {}
