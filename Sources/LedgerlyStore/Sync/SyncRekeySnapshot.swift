import Foundation
import GRDB
import LedgerlyProtocol

/// The whole ledger as this device's identities hold it, put in the outbox for a ledger that
/// replaces the old one (`sync.enable` with `rekey`, D481).
///
/// Why the identities and not a scan: a scan compares each thing with what was last sent and
/// would send nothing (or, with the comparison forgotten, give every field a new clock, so a
/// change another device made meanwhile would lose to this copy). Each identity goes out as it
/// was last sent or applied, with its own field clocks: a device that holds the same thing
/// merges it as unchanged, one that holds a newer field keeps it, and tombstones travel too.
/// Things go kind by kind in the order a receiver needs them (what a thing names comes first:
/// the rate profiles before the settings that name one, wallets and categories before
/// transactions), and within a kind by local id, the order they became known here; tombstones
/// last.
enum SyncRekeySnapshot {
    /// The kinds in sending order: `SyncedThings.all` with the settings after the rate profiles.
    static var order: [String] {
        var kinds = SyncedThings.all.map { $0.entity }.filter { $0 != SettingsSync.entity }
        let profile = kinds.firstIndex(of: RateProfileSync.entity).map { $0 + 1 } ?? 0
        kinds.insert(SettingsSync.entity, at: profile)
        return kinds
    }

    /// Enqueues one message per identity that was ever sent or applied (a claimed, never stamped
    /// one waits for its own stamp); returns how many.
    @discardableResult
    static func enqueueAll(identities: SyncIdentities) throws -> Int {
        let kinds = order
        let others = try String.fetchAll(identities.db, sql: "SELECT DISTINCT entity FROM sync_ids ORDER BY entity").filter { !kinds.contains($0) }
        var count = 0
        for kind in kinds + others {
            let rows = try Row.fetchAll(identities.db, sql: """
                SELECT entity, gid, local_id, deleted, clocks, fields FROM sync_ids WHERE entity = ? ORDER BY local_id IS NULL, local_id, gid
                """, arguments: [kind])
            for row in rows {
                let clocks = try SyncFields.clocks(text: row[4])
                guard !clocks.isEmpty else { continue }
                let deleted: Bool = row[3]
                try identities.enqueue(SyncMessage(
                    entity: row[0], gid: row[1], hlc: "", device: identities.device, localId: deleted ? nil : row[2], deleted: deleted,
                    fields: deleted ? [:] : try SyncFields.object(text: row[5]), clocks: clocks))
                count += 1
            }
        }
        return count
    }
}
