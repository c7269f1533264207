import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Steps 3 and 4 of a rekey (D480–D482), and finishing them after a rekey was cut short (D534).
///
/// A rekey writes `RekeyInProgress` (the new key and the retirement record) before its hub
/// transaction. Found at the start of a round, it means the rekey did not get to its new
/// credentials: the hub says whether its transaction committed. When the hub holds this very
/// retirement (it opens with the old key and names the new ledger), the rekey is finished now,
/// before the round reads anything with the old credentials (which would find the retirement and
/// put this device into `rejoin`). When the hub holds no retirement of the old ledger, nothing
/// was changed there: the file is dropped and the old ledger goes on. When another rekey retired
/// it (another successor), the file is dropped and the round reports `rejoin`, as on any device.
/// A hub that cannot be reached leaves the file for the next round.
enum SyncRekeyResumption {
    /// 3. The store re-sends its whole ledger into the new one (`sync.enable` mode `rekey`);
    /// 4. the new credentials, then the verified record for `sync devices` (D533), then the
    /// rekey is no longer in progress.
    static func finish(_ record: LedgerRetirement, key: LedgerKey, old: SyncCredentials, home: LedgerlyHome, store: AsyncRequestClient) async throws {
        let newId = record.successorLedgerId.uuidString.lowercased()
        _ = try await store.call(SyncEnableRequest(ledgerId: newId, deviceId: old.deviceId.uuidString.lowercased(), hub: old.hub.redacted, mode: .rekey))
        try SyncCredentials(hub: old.hub, ledgerId: record.successorLedgerId, deviceId: old.deviceId, key: key).save(home: home.root)
        try VerifiedRetirements.add(record, home: home.root)
        try RekeyInProgress.remove(home: home.root)
    }

    /// Finishes or drops a rekey cut short; nothing when none is in progress. Never throws: a
    /// failure is logged and tried again at the next round.
    static func resumeIfCutShort(home: LedgerlyHome, store: AsyncRequestClient, logger: Logger) async {
        do {
            guard let pending = try RekeyInProgress.load(home: home.root) else { return }
            guard let old = try SyncCredentials.load(home: home.root) else {
                try RekeyInProgress.remove(home: home.root)
                return
            }
            let record = pending.record
            if old.ledgerId == record.successorLedgerId {
                // The credentials were written (a `sync enable` with the new passphrase, or step 4
                // just before the cut): only the bookkeeping is left.
                try VerifiedRetirements.add(record, home: home.root)
                try RekeyInProgress.remove(home: home.root)
                return
            }
            guard old.ledgerId == record.retiredLedgerId else {
                try RekeyInProgress.remove(home: home.root)
                return
            }
            if old.key.bytes == pending.key {
                // Cut between step 4's two files (the new key written, `hub.json` not yet): the
                // key is written only after step 3, so the hub transaction committed. The old key
                // is gone, so the hub's record cannot be opened to check it: finish from ours
                // (D625). Before, the record did not open with the key on disk, the file was
                // dropped and the device was left on the retired ledger with the new key.
                try await finish(record, key: try pending.ledgerKey(), old: old, home: home, store: store)
                logger.notice("sync rekey cut short finished: this device is on the new ledger", metadata: ["ledger": "\(record.successorLedgerId)"])
                return
            }
            let hub = HubClient(address: old.hub, logger: logger)
            defer { Task { await hub.close() } }
            guard let row = try await hub.retirement(of: old.ledgerId) else {
                logger.notice("sync rekey cut short before its hub transaction: nothing changed; run it again",
                              metadata: ["ledger": "\(old.ledgerId)"])
                try RekeyInProgress.remove(home: home.root)
                return
            }
            let opened = try? LedgerRetirement.open(row.sealed, key: old.key, retired: old.ledgerId, successor: row.successorId)
            guard let opened, opened.successorLedgerId == record.successorLedgerId, opened.byDevice == old.deviceId else {
                logger.notice("sync rekey cut short, and the hub holds another retirement of the ledger: this device re-joins as the others do",
                              metadata: ["ledger": "\(old.ledgerId)"])
                try RekeyInProgress.remove(home: home.root)
                return
            }
            try await finish(record, key: try pending.ledgerKey(), old: old, home: home, store: store)
            logger.notice("sync rekey cut short finished: this device is on the new ledger", metadata: ["ledger": "\(record.successorLedgerId)"])
        } catch {
            logger.warning("sync rekey cut short could not be finished yet; tried again at the next round", metadata: ["error": "\(error)"])
        }
    }
}
