import Foundation
import GRDB
import LedgerlyProtocol

/// Remembers the reply of every applied write by its idempotency key, in the same SQL
/// transaction as the write: a retried request gets the original reply and changes nothing.
enum IdempotencyLedger {
    struct Entry {
        let requestType: String
        let bodyHash: String
        let reply: Data
    }

    static func lookup(_ db: Database, key: String) throws -> Entry? {
        guard let row = try db.cachedRow(sql: "SELECT request_type, body_hash, reply FROM idempotency WHERE key = ?", arguments: [key]) else { return nil }
        return Entry(requestType: row["request_type"], bodyHash: row["body_hash"], reply: Data((row["reply"] as String).utf8))
    }

    static func remember(_ db: Database, key: String, requestType: String, bodyHash: String, reply: Data, at now: String) throws {
        try db.execute(cached: "INSERT INTO idempotency (key, request_type, body_hash, reply, created_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [key, requestType, bodyHash, String(decoding: reply, as: UTF8.self), now])
    }
}
