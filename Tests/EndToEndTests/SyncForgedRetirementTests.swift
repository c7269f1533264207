import Foundation
import LedgerlyProtocol
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The sync review's leftovers (issue 44; D533): a hostile hub sets `ledgerly_retirements`'
    /// clear columns without a record sealed with the ledger's key. Only a record that opens with
    /// the retired ledger's key counts: `sync enable` no longer hides a ledger on the column's
    /// say, and `sync devices` no longer shows a ledger or a device as retired on it. Real
    /// binaries, a real PostgreSQL hub.
    @Suite struct SyncForgedRetirementTests {
        typealias Device = SyncTests.Device

        /// A ledger of the hub's own making (the real ledger's KDF parameters, a key check no
        /// passphrase opens) and a retirement of `ledger` in its favour, sealed with nothing.
        static func forgeRetirement(_ hub: TemporaryPostgres, of ledger: String, naming devices: [String]) throws -> String {
            let successor = UUID().uuidString.lowercased()
            let noise = (0..<64).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            _ = try hub.psql("""
                INSERT INTO ledgerly_ledgers (ledger_id, kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check)
                SELECT '\(successor)', kdf, kdf_salt, kdf_n, kdf_r, kdf_p, '\\x\(noise)' FROM ledgerly_ledgers WHERE ledger_id = '\(ledger)';
                INSERT INTO ledgerly_retirements (ledger_id, successor_id, retired_devices, sealed)
                VALUES ('\(ledger)', '\(successor)', ARRAY[\(devices.map { "'\($0)'" }.joined(separator: ","))]::uuid[], '\\x\(noise)');
                """, database: hub.database)
            return successor
        }

        /// Before: the only ledger the passphrase opens was hidden, the hub's ledger offered alone,
        /// and the join refused as a wrong passphrase.
        @Test func enableJoinsALedgerWhoseRetirementIsForged() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            #expect(try a.cli("wallet", "add", "Cash", "--currency", "EUR", "--starting-balance", "12").status == 0)
            let enabled = try a.enable(hub)
            #expect(enabled.status == 0, "\(enabled.stderr)")
            try a.waitUntilSynced()
            let ledger = try #require(a.status().ledgerId)
            _ = try Self.forgeRetirement(hub, of: ledger, naming: [])

            let b = try Device(setUp: false)
            let joined = try b.enable(hub)
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(try b.status().ledgerId == ledger)
            try b.harness.waitFor("B to hold A's wallet", seconds: 30) {
                _ = try? b.cli("sync", "now")
                return try b.cli("wallet", "list").stdout.contains("Cash")
            }
        }

        /// Before: the ledger showed as `retired` (its successor the hub's ledger) and B as a
        /// device retired with `--retire`, on the hub's word alone. Now this ledger stays current,
        /// B is not retired, and a ledger the hub says this one replaced is `unverified`.
        @Test func devicesBelievesOnlySealedRetirements() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let b = try a.enableAndJoin(hub)
            try Device.meet([a, b])
            let ledger = try #require(a.status().ledgerId)
            let deviceB = try #require(b.status().deviceId)
            let successor = try Self.forgeRetirement(hub, of: ledger, naming: [deviceB])
            // A ledger the hub says this one replaced, with B named in its clear column.
            let predecessor = UUID().uuidString.lowercased()
            _ = try hub.psql("""
                INSERT INTO ledgerly_ledgers (ledger_id, kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check)
                SELECT '\(predecessor)', kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check FROM ledgerly_ledgers WHERE ledger_id = '\(ledger)';
                INSERT INTO ledgerly_retirements (ledger_id, successor_id, retired_devices, sealed)
                VALUES ('\(predecessor)', '\(ledger)', ARRAY['\(deviceB)']::uuid[], '\\x00');
                INSERT INTO ledgerly_devices (ledger_id, device_id, pulled_seq) VALUES ('\(predecessor)', '\(deviceB)', 0);
                """, database: hub.database)

            let listed = try a.cli("sync", "devices", "--json")
            #expect(listed.status == 0, "\(listed.stderr)")
            let devices = try JSONDecoder().decode(SyncDevicesReply.self, from: Data(listed.stdout.utf8)).devices
            #expect(!devices.contains { $0.ledgerId == successor }, "\(devices)")
            let current = devices.filter { $0.ledgerId == ledger }
            #expect(current.count == 2 && current.allSatisfy { $0.ledger == "current" && !$0.retired && $0.retirement == nil }, "\(current)")
            let old = devices.filter { $0.ledgerId == predecessor }
            #expect(old.count == 1 && old.allSatisfy { $0.ledger == "retired" && !$0.retired && $0.retirement == "unverified" }, "\(old)")
            let table = try a.cli("sync", "devices").stdout
            #expect(table.contains("retired (unverified) \(predecessor.prefix(8))"), "\(table)")
        }
    }
}
