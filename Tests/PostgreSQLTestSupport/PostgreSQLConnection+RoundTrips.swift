#if PostgreSQL
package import PostgreSQLDatabase

extension PostgreSQLConnection {
    /// How many round trips `body` took on this connection (its `roundTrips` count before and after).
    package func countingRoundTrips(_ body: () throws -> Void) rethrows -> Int {
        let before = roundTrips
        try body()
        return roundTrips - before
    }
}
#endif
