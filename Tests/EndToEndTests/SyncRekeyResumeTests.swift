import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlySync
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// A rekey cut short inside its step 4 (D534, D625): `kill -9` after the new `ledger.key` was
    /// written and before `hub.json` named the new ledger. The files are put in that state by hand
    /// (a cut between two file writes cannot be placed from outside): a finished rekey's new key,
    /// `hub.json` naming the retired ledger again, and the `sync/rekey.json` the rekey wrote.
    @Suite struct SyncRekeyResumeTests {
        typealias Device = SyncTests.Device

        /// Before D625 the next round opened the hub's retirement with the key on disk (the new
        /// one), failed, dropped `rekey.json` and left the device on the retired ledger.
        @Test func aRekeyCutBetweenTheNewKeyAndHubJSONIsFinished() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            #expect(try a.cli("wallet", "add", "Cash", "--currency", "EUR", "--starting-balance", "50").status == 0)
            let enabled = try a.enable(hub)
            #expect(enabled.status == 0, "\(enabled.stderr)")
            try a.waitUntilSynced()
            let oldLedger = try #require(a.status().ledgerId)
            let device = try #require(a.status().deviceId)

            let newFile = a.harness.home.root.appendingPathComponent("new-passphrase.txt")
            try Data((SyncRekeyTests.newPassphrase + "\n").utf8).write(to: newFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: newFile.path)
            let rekeyed = try a.cli("sync", "rekey", "--passphrase-file", newFile.path, "--yes")
            #expect(rekeyed.status == 0, "\(rekeyed.stderr)")
            let newLedger = try #require(a.status().ledgerId)
            #expect(newLedger != oldLedger)

            // The cut: ledger.key new, hub.json back on the retired ledger, rekey.json present.
            a.harness.stop(.sync, signal: SIGKILL)
            let home = a.harness.home.root
            let hubFile = home.appendingPathComponent("sync/hub.json")
            let hubText = try String(contentsOf: hubFile, encoding: .utf8)
            try Data(hubText.replacingOccurrences(of: newLedger, with: oldLedger, options: .caseInsensitive).utf8).write(to: hubFile)
            #expect(try String(contentsOf: hubFile, encoding: .utf8).lowercased().contains(oldLedger))
            let key = try LedgerKey(bytes: Array(Data(contentsOf: home.appendingPathComponent("sync/ledger.key"))))
            let record = LedgerRetirement(retiredLedgerId: try #require(UUID(uuidString: oldLedger)), successorLedgerId: try #require(UUID(uuidString: newLedger)),
                                          byDevice: try #require(UUID(uuidString: device)), retiredDevices: [])
            try RekeyInProgress(record: record, key: key).save(home: home)

            // The first round finishes it: hub.json names the new ledger, rekey.json is gone.
            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try a.harness.waitFor("A to finish the rekey", seconds: 30) {
                try String(contentsOf: hubFile, encoding: .utf8).lowercased().contains(newLedger)
            }
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("sync/rekey.json").path))
            _ = try a.cli("tx", "add", "--wallet", "Cash", "--amount", "7.77", "--notes", "After the cut", "--date", "2026-11-03")
            try a.waitUntilSynced()
            #expect(try a.status().state == "synced")
            #expect(try a.status().ledgerId == newLedger)
        }
    }
}
