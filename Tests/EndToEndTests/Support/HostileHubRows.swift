import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlySync
import LedgerlyTesting

/// Rows a hostile hub (or anyone with write access to its table) puts among a ledger's messages,
/// as the sync tests of issue 44 need them: written straight into `ledgerly_messages`.
enum HostileHubRows {
    /// `byteCount` random bytes under a device no one knows and a clock of `milliseconds`:
    /// a row that does not open. Returns the stranger's device id.
    static func insertPoison(_ hub: TemporaryPostgres, ledger: String, byteCount: Int, milliseconds: Int64) throws -> String {
        let stranger = UUID().uuidString.lowercased()
        let randomHex = (0..<byteCount).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        _ = try hub.psql("INSERT INTO ledgerly_messages (ledger_id, device_id, hlc, sealed) VALUES ('\(ledger)', '\(stranger)', '\(HybridLogicalClock(milliseconds: milliseconds, counter: 0, device: stranger))', '\\x\(randomHex)')",
                         database: hub.database)
        return stranger
    }

    /// A new wallet "Forged", sealed with the ledger's own key by a new device whose clock reads
    /// `milliseconds`. Returns the forger's device id.
    static func insertForgedWallet(_ hub: TemporaryPostgres, credentials: SyncCredentials, milliseconds: Int64) throws -> UUID {
        let forger = UUID()
        let clock = HybridLogicalClock(milliseconds: milliseconds, counter: 0, device: forger.uuidString.lowercased()).description
        let fields: [String: JSONValue] = [
            "name": .string("Forged"), "currency": .string("EUR"), "type": .string("cash"), "startingBalance": .string("0"), "sortOrder": .integer(0),
            "includeInNetWorth": .bool(true), "archived": .bool(false), "createdAt": .string("2026-11-02T10:00:00.000Z"), "updatedAt": .string("2026-11-02T10:00:00.000Z"),
        ]
        let message = SyncMessage(entity: "wallet", gid: UUID().uuidString.lowercased(), hlc: clock, device: forger.uuidString.lowercased(), localId: nil, deleted: false,
                                  fields: fields, clocks: fields.mapValues { _ in clock })
        let sealed = try MessageSeal(key: credentials.key, ledgerId: credentials.ledgerId).seal(try MessageCoding.encode(message), deviceId: forger, hlc: clock)
        _ = try hub.psql("INSERT INTO ledgerly_messages (ledger_id, device_id, hlc, sealed) VALUES ('\(credentials.ledgerId.uuidString.lowercased())', '\(forger.uuidString.lowercased())', '\(clock)', '\\x\(sealed.map { String(format: "%02x", $0) }.joined())')",
                         database: hub.database)
        return forger
    }
}
