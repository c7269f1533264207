import GRDB

/// Runs handler SQL through GRDB's per-connection statement cache, so each query is parsed
/// (and checked by GRDB's authorizer) once per connection instead of on every request; that
/// compile step was a large share of a write's CPU time. Only for SQL with a bounded number of
/// variants: text that embeds values (an `IN (…)` list) would grow the cache without end.
extension Database {
    func execute(cached sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }

    func cachedRow(sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try Row.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }

    func cachedRows(sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try Row.fetchAll(cachedStatement(sql: sql), arguments: arguments)
    }

    func cachedValue<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Value? {
        try Value.fetchOne(cachedStatement(sql: sql), arguments: arguments)
    }
}
