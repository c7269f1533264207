import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlySync
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// A hub that lies, with the real binaries on a real PostgreSQL hub (as `SyncTests`): a row
    /// whose clock carries terminal escape sequences and a row with a NULL column are quarantined
    /// and shown inert (D463, D465); a hub that returns rows already pulled fails the round with
    /// its fault named instead of being pulled from forever (D466).
    @Suite struct SyncHostileHubTests {
        typealias Device = SyncTests.Device

        @Test func aLyingHubIsQuarantinedShownInertAndNeverPulledFromForever() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            _ = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let enabled = try a.enable(hub)
            #expect(enabled.status == 0, "\(enabled.stderr)")
            try a.waitUntilSynced()
            let ledger = try #require(try SyncCredentials.load(home: a.harness.home.root)).ledgerId.uuidString.lowercased()
            let stranger = UUID().uuidString.lowercased()

            // A clock that rewrites the terminal's title and clears it, and a row with no clock.
            _ = try hub.psql("""
                INSERT INTO ledgerly_messages (ledger_id, device_id, hlc, sealed) VALUES ('\(ledger)', '\(stranger)', E'\\x1b]0;owned\\x07\\x1b[2J\(String(repeating: "x", count: 100))', '\\x00ff');
                ALTER TABLE ledgerly_messages ALTER COLUMN hlc DROP NOT NULL;
                INSERT INTO ledgerly_messages (ledger_id, device_id, hlc, sealed) VALUES ('\(ledger)', '\(stranger)', NULL, '\\x00ff');
                """, database: hub.database)
            try a.waitUntilSynced()
            let status = try a.status()
            #expect(status.quarantinedTotal == 2, "\(status)")
            let shown = try a.cli("sync", "status").stdout
            #expect(!shown.contains("\u{1B}") && !shown.contains("\u{07}"), "\(shown.debugDescription)")
            #expect(shown.contains("\\u{1B}]0;owned\\u{7}\\u{1B}[2J") && shown.contains("hlc"), "\(shown)")

            // The hub now answers "after N" with every row: `>` on bigint is its own, always true.
            _ = try hub.psql("""
                CREATE SCHEMA evil; GRANT USAGE ON SCHEMA evil TO PUBLIC;
                CREATE FUNCTION evil.always(bigint, bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
                CREATE OPERATOR evil.> (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = evil.always);
                ALTER DATABASE \(hub.database) SET search_path = public, evil, pg_catalog;
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid();
                """, database: hub.database)
            var last = status
            do {
                try a.harness.waitFor("the round to fail on the hub's fault", seconds: 30) {
                    _ = try? a.cli("sync", "now")
                    last = try a.status()
                    return last.state == "error" && (last.lastError ?? "").contains("the hub is faulty")
                }
            } catch {
                Issue.record("\(error): \(last)")
            }
        }
    }
}
