import Foundation
import GRDB
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// The migrations that come with the kinds synced since `v15-sync`, on a database a syncing
/// device wrote before them.
@Suite struct SyncUpgradeMigrationTests {
    /// `v18-sync-new-kinds`: a device that was syncing scans again from the start, so its goals,
    /// assets, liabilities, snapshots, rate profiles, typed rates and the settings' profile
    /// choices go up; one that was not stays still.
    /// `v16-withdrawn-contributions-unlinked`: a withdrawn contribution names no transaction.
    @Test func aSyncingDeviceScansAgainAndWithdrawnContributionsAreUnlinked() throws {
        for enabled in [true, false] {
            let queue = try DatabaseQueue()
            let migrator = StoreMigrations.migrator()
            try migrator.migrate(queue, upTo: "v15-sync")
            try queue.write { db in
                try db.execute(sql: "UPDATE sync_state SET enabled = ?, device_id = 'b7e24d90-1c5a-4f3e-9d68-2a0f4c7e1b55', stamped_seq = 40 WHERE id = 1",
                               arguments: [enabled])
                try db.execute(sql: "INSERT INTO goals (id, name, target_minor, currency, created_at, updated_at) VALUES (1, 'Trip', 100000, 'EUR', 'now', 'now')")
                for (id, withdrawn) in [(1, "2026-11-02T10:00:00.000Z"), (2, nil)] {
                    try db.execute(sql: "INSERT INTO goal_contributions (id, goal_id, amount_minor, date, tx_id, created_at, withdrawn_at) VALUES (?, 1, 500, '2026-11-01', ?, 'now', ?)",
                                   arguments: [id, 40 + id, withdrawn])
                }
            }
            try migrator.migrate(queue)
            let scan = try queue.read { db in try Row.fetchOne(db, sql: "SELECT scan_entity, scan_after, stamped_seq FROM sync_state WHERE id = 1") }
            #expect(scan?["scan_entity"] == (enabled ? SettingsSync.entity : nil))
            #expect(scan?["scan_after"] == 0 && scan?["stamped_seq"] == 40)
            let links = try queue.read { db in try Int64?.fetchAll(db, sql: "SELECT tx_id FROM goal_contributions ORDER BY id") }
            #expect(links == [nil, 42])
        }
    }

    /// `v19-sync-investments`: a device syncing since v18 scans again, so its investments go up;
    /// its trades count (none is marked unapplied).
    @Test func aDeviceSyncingSinceV18ScansAgainForItsInvestments() throws {
        for enabled in [true, false] {
            let queue = try DatabaseQueue()
            let migrator = StoreMigrations.migrator()
            try migrator.migrate(queue, upTo: "v18-sync-new-kinds")
            try queue.write { db in
                try db.execute(sql: "UPDATE sync_state SET enabled = ?, device_id = 'b7e24d90-1c5a-4f3e-9d68-2a0f4c7e1b55', scan_entity = NULL, stamped_seq = 12 WHERE id = 1",
                               arguments: [enabled])
                try db.execute(sql: "INSERT INTO assets (id, symbol, asset_type, quote_currency, provider, created_at, updated_at) VALUES (1, 'VWCE', 'etf', 'EUR', 'manual', 'now', 'now')")
                try db.execute(sql: "INSERT INTO trades (id, kind, asset_id, date, ratio, currency, created_at) VALUES (1, 'split', 1, '2026-11-02', '2:1', 'EUR', 'now')")
            }
            try migrator.migrate(queue)
            let scan = try queue.read { db in try Row.fetchOne(db, sql: "SELECT scan_entity, scan_after, stamped_seq FROM sync_state WHERE id = 1") }
            #expect(scan?["scan_entity"] == (enabled ? SettingsSync.entity : nil))
            #expect(scan?["scan_after"] == 0 && scan?["stamped_seq"] == 12)
            #expect(try queue.read { db in try TradeRow.fetchOne(db, key: 1) }?.unapplied == nil)
        }
    }

    /// `v29-sync-gap-baseline` (D461): on a ledger that was syncing before the upgrade, a device
    /// upgraded earlier sent numbers this one never followed, so the first number seen from a
    /// device is its start (no false gap 1…N); a fresh ledger, and another ledger enabled later,
    /// stay strict.
    @Test func aLedgerSyncingBeforeTheUpgradeTakesTheFirstNumberSeenAsTheStart() throws {
        let peer = "3f9a6c1e-2b4d-4e8f-9a10-5c6d7e8f9a0b"
        for syncing in [true, false] {
            let queue = try DatabaseQueue()
            let migrator = StoreMigrations.migrator()
            try migrator.migrate(queue, upTo: "v28-average-cost-replay")
            if syncing {
                try queue.write { db in
                    try db.execute(sql: "UPDATE sync_state SET enabled = 1, ledger_id = '6f1c2a9e-3b7d-4c0e-9a55-0d2f3e4b5a61', device_id = 'b7e24d90-1c5a-4f3e-9d68-2a0f4c7e1b55', pulled_seq = 300 WHERE id = 1")
                }
            }
            try migrator.migrate(queue)
            let gaps = try queue.write { db in
                try SyncGaps.observe(db, device: peer, seq: 41)
                try SyncGaps.observe(db, device: peer, seq: 43)
                return try SyncGaps.gaps(db).map(\.missing)
            }
            // Strict after the first number either way: 42 is missing.
            #expect(gaps == (syncing ? ["42"] : ["1-40, 42"]), "\(syncing) \(gaps)")
        }
        // Another ledger (or starting over) follows numbers strictly again.
        let queue = try DatabaseQueue()
        try StoreMigrations.migrator().migrate(queue, upTo: "v28-average-cost-replay")
        try queue.write { db in try db.execute(sql: "UPDATE sync_state SET ledger_id = '6f1c2a9e-3b7d-4c0e-9a55-0d2f3e4b5a61' WHERE id = 1") }
        try StoreMigrations.migrator().migrate(queue)
        let gaps = try queue.write { db in
            try SyncGaps.forget(db)
            try SyncGaps.observe(db, device: peer, seq: 5)
            return try SyncGaps.gaps(db).map(\.missing)
        }
        #expect(gaps == ["1-4"])
    }
}
