import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The sync review's leftovers (issue 44; D534): `ledgerly-sync` killed with `kill -9` in the
    /// middle of a rekey, after the hub transaction committed and before the store moved to the
    /// new ledger. Before, the rekeying device came back holding only the old key and showed
    /// `re-join needed` like every other device; now its first round finishes the rekey, and the
    /// other device re-joins with nothing lost. Real binaries, a real PostgreSQL hub.
    @Suite struct SyncRekeyKillTests {
        typealias Device = SyncTests.Device

        /// The cut is placed, not raced: the hub's retirements table is locked against writes, so
        /// the rekey waits inside its hub transaction (rounds only read that table); the store is
        /// stopped (SIGSTOP); the lock is let go, the transaction commits, and the rekey waits for
        /// the stopped store: then `kill -9`.
        @Test func aRekeyKilledAfterItsHubTransactionIsFinishedAfterTheRestart() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            #expect(try a.cli("wallet", "add", "Cash", "--currency", "EUR", "--starting-balance", "50").status == 0)
            _ = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "4.20", "--notes", "Before the rekey", "--date", "2026-11-02")
            let b = try a.enableAndJoin(hub)
            _ = try b.cli("tx", "add", "--wallet", "Cash", "--amount", "2.50", "--notes", "Made on B before", "--date", "2026-11-02")
            try Device.meet([a, b])
            let oldLedger = try #require(a.status().ledgerId)

            // Writes to the retirements table wait, in a session of our own (released by ending it).
            func locks(granted: Bool) throws -> String {
                try hub.psql("SELECT count(*) FROM pg_locks WHERE relation = 'ledgerly_retirements'::regclass AND mode <> 'AccessShareLock' AND \(granted ? "" : "NOT ")granted",
                             database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let lockThread = Thread {
                _ = try? hub.psql("BEGIN; LOCK TABLE ledgerly_retirements IN EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT", database: hub.database)
            }
            lockThread.start()
            try a.harness.waitFor("the lock to be held", seconds: 20) { try locks(granted: true) == "1" }

            let passphraseFile = a.harness.home.root.appendingPathComponent("new-passphrase.txt")
            try Data((SyncRekeyTests.newPassphrase + "\n").utf8).write(to: passphraseFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passphraseFile.path)
            let rekey = Process()
            rekey.executableURL = ServiceHarness.binaryDirectory.appendingPathComponent("ledgerly")
            rekey.arguments = ["sync", "rekey", "--passphrase-file", passphraseFile.path, "--yes"]
            rekey.environment = ProcessInfo.processInfo.environment.merging(["LEDGERLY_HOME": a.harness.home.root.path]) { $1 }
            rekey.standardOutput = FileHandle.nullDevice
            rekey.standardError = FileHandle.nullDevice
            try rekey.run()
            defer { if rekey.isRunning { kill(rekey.processIdentifier, SIGKILL) } }

            // The rekey waits in its hub transaction; the store is stopped; the lock let go.
            try a.harness.waitFor("the rekey to wait for the lock", seconds: 60) { try locks(granted: false) == "1" }
            let store = try #require(a.harness.pid(.store))
            kill(store, SIGSTOP)
            _ = try hub.psql("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE relation = 'ledgerly_retirements'::regclass AND mode = 'ExclusiveLock' AND granted",
                             database: hub.database)
            try a.harness.waitFor("the hub transaction to commit", seconds: 20) {
                try hub.psql("SELECT count(*) FROM ledgerly_retirements", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            }
            a.harness.stop(.sync, signal: SIGKILL)
            kill(store, SIGCONT)
            kill(rekey.processIdentifier, SIGKILL)
            let newLedger = try hub.psql("SELECT successor_id FROM ledgerly_retirements", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)
            // Cut where it was meant to be: the credentials still hold the old ledger (the store
            // may yet take the `sync.enable` it was sent while stopped, or not).
            let hubFile = a.harness.home.root.appendingPathComponent("sync/hub.json")
            #expect(try String(contentsOf: hubFile, encoding: .utf8).lowercased().contains(oldLedger))

            // After the restart, A's first round finishes the rekey: the new ledger, synced (before,
            // A showed `re-join needed` with the old key only).
            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try a.harness.waitFor("A to finish the rekey", seconds: 60) {
                try String(contentsOf: hubFile, encoding: .utf8).lowercased().contains(newLedger)
            }
            #expect(try a.status().ledgerId == newLedger)
            _ = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "7.77", "--notes", "After the rekey", "--date", "2026-11-03")
            try a.waitUntilSynced()
            #expect(try a.status().state == "synced")
            #expect(!FileManager.default.fileExists(atPath: a.harness.home.root.appendingPathComponent("sync/rekey.json").path))

            // B is told to re-join, keeps working, re-joins with the new passphrase: nothing lost.
            try b.harness.waitFor("B to see the retirement", seconds: 30) {
                _ = try? b.cli("sync", "now")
                return try b.status().state == "rejoin"
            }
            _ = try b.cli("tx", "add", "--wallet", "Cash", "--amount", "1.10", "--notes", "Made while waiting", "--date", "2026-11-04")
            try Data((SyncRekeyTests.newPassphrase + "\n").utf8).write(to: b.passphraseFile)
            let rejoined = try b.enable(hub)
            #expect(rejoined.status == 0, "\(rejoined.stderr)")
            #expect(try b.status().ledgerId == newLedger)
            try Device.meet([a, b])
            let exportA = try a.export()
            #expect(try SyncRekeyTests.withoutLocalIds(exportA) == SyncRekeyTests.withoutLocalIds(b.export()))
            for note in ["Before the rekey", "Made on B before", "After the rekey", "Made while waiting"] {
                #expect(exportA.contains(note), "\(note) is missing")
            }
        }
    }
}
