import Foundation
import GRDB
import LedgerlyProtocol

/// A row of `conversions`, the history of `convert`: the one type that reads and writes the
/// table, and the one place a stored conversion becomes its wire record.
struct ConversionRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "conversions"
    /// Properties are the columns in camel case (`from_currency` → `fromCurrency`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
    }

    var id: Int64?
    /// Exact decimal texts, as the request and the engine gave them.
    var amount: String
    var fromCurrency: String
    var result: String
    var toCurrency: String
    /// The rates used, as JSON text (`RateSnapshot`).
    var snapshot: String
    var warning: String?
    var createdAt: String

    init(id: Int64? = nil, amount: String, fromCurrency: String, result: String, toCurrency: String, snapshot: RateSnapshot, warning: String?, createdAt: String) throws {
        self.id = id
        self.amount = amount
        self.fromCurrency = fromCurrency
        self.result = result
        self.toCurrency = toCurrency
        self.snapshot = String(decoding: try MessageCoding.encode(snapshot), as: UTF8.self)
        self.warning = warning
        self.createdAt = createdAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func record() throws -> ConversionRecord {
        ConversionRecord(
            id: id ?? 0, amount: amount, from: fromCurrency, result: result, to: toCurrency,
            snapshot: try MessageCoding.decoder().decode(RateSnapshot.self, from: Data(snapshot.utf8)), warning: warning, createdAt: createdAt)
    }
}

extension ConversionRow {
    /// A page of the history: after `afterId` in id order, or without it the newest first.
    static func page(_ db: Database, afterId: Int64?, limit: Int) throws -> [ConversionRow] {
        let rows = try afterId.map { try db.cachedRows(sql: "SELECT * FROM conversions WHERE id > ? ORDER BY id LIMIT ?", arguments: [$0, limit]) }
            ?? db.cachedRows(sql: "SELECT * FROM conversions ORDER BY id DESC LIMIT ?", arguments: [limit])
        return try rows.map { try ConversionRow(row: $0) }
    }
}
