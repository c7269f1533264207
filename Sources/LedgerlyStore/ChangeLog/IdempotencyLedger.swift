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

    /// FNV-1a over the canonical (sorted-keys) body: detects a key reused for a different request.
    /// Not a security measure, only a guard against client bugs.
    static func hash(_ canonicalBody: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonicalBody {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
