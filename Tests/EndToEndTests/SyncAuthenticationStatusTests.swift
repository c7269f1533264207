import Foundation
import LedgerlyProtocol
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The sync review's leftovers (issue 44; D531): `sync status` says how the hub knew this device
    /// on the last connection, as `ledgerly-sync` saw it, not the rule ("SCRAM-SHA-256 when the
    /// hub asks"), which it printed whatever the hub did. Real binaries, a real PostgreSQL hub.
    @Suite struct SyncAuthenticationStatusTests {
        typealias Device = SyncTests.Device

        /// SCRAM-SHA-256 after a round; then the hub's administrator switches pg_hba.conf to
        /// `password` (cleartext): the next round is refused before the password goes out, and
        /// `sync status` says that is what the server asked for.
        @Test func theStatusSaysWhatTheLastConnectionUsed() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let device = try Device(setUp: true)
            let enabled = try device.enable(hub)
            #expect(enabled.status == 0, "\(enabled.stderr)")
            try device.waitUntilSynced()
            try device.harness.waitFor("a round to report its authentication", seconds: 20) {
                try device.status().hubAuthentication == "SCRAM-SHA-256"
            }
            #expect(try device.cli("sync", "status").stdout.contains("Authentication: SCRAM-SHA-256\n"))

            let hba = try hub.psql("SHOW hba_file").trimmingCharacters(in: .whitespacesAndNewlines)
            let rules = try String(contentsOfFile: hba, encoding: .utf8)
            try rules.replacingOccurrences(of: "scram-sha-256", with: "password").write(toFile: hba, atomically: false, encoding: .utf8)
            _ = try hub.psql("SELECT pg_reload_conf()")
            try device.harness.waitFor("a round refused for a cleartext request", seconds: 30) {
                // ledgerly-sync keeps its connection between rounds: end it, so a round connects anew.
                _ = try hub.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(hub.user)'")
                _ = try? device.cli("sync", "now")
                return try device.status().hubAuthentication?.contains("cleartext") == true
            }
            let status = try device.cli("sync", "status")
            #expect(status.stdout.contains("Sync: error"), "\(status.stdout)")
            #expect(status.stdout.contains("Authentication: refused: the server asked for a cleartext password, which Ledgerly does not send"), "\(status.stdout)")
            #expect(!status.stdout.contains(hub.password))
        }
    }
}
