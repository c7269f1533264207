import Foundation
import GRDB
import LedgerlyProtocol

/// Turns local changes into outbox messages: first a scan of every thing when one is under way
/// (after enabling, or a restore), then the change log from where it stopped.
///
/// Why the change log: it is written in the same SQL transaction as every change, so no change
/// can be missed, even across a crash; a stamp compares the thing with what was last sent, so
/// the events a `sync.apply` itself logs, and a change stamped twice, send nothing.
enum SyncStamper {
    /// Stamps about `budget` things (a whole import's event at once); true when nothing is left.
    static func run(_ state: inout SyncStateRow, identities: SyncIdentities, budget: Int) throws -> Bool {
        let db = identities.db
        var left = budget
        while let entity = state.scanEntity, left > 0 {
            guard let index = SyncedThings.all.firstIndex(where: { $0.entity == entity }) else { state.scanEntity = nil; break }
            let thing = SyncedThings.all[index]
            let requested = left
            let (ids, next) = try thing.scan(db, after: state.scanAfter, limit: requested)
            for id in ids { try identities.stamp(thing, localId: id) }
            left -= ids.count
            if ids.count < requested {
                // This kind is done: the next one from its start.
                state.scanEntity = index + 1 < SyncedThings.all.count ? SyncedThings.all[index + 1].entity : nil
                state.scanAfter = 0
            } else {
                state.scanAfter = next
            }
        }
        guard state.scanEntity == nil else { return false }
        // A thing with a history (a goal's contributions, an asset's valuations, a liability's
        // entries, a profile's typed rates, a security's typed prices) is stamped whole once per run, however many of the
        // run's events name it: a batch that brings 1,000 entries of one liability logs 1,000
        // `liability.updated`, and stamping the whole history for each would be 1,000².
        var stampedWhole: Set<String> = []
        while left > 0 {
            let rows = try Row.fetchAll(db, sql: "SELECT seq, type, entity_id, data, ts FROM change_log WHERE seq > ? ORDER BY seq LIMIT 500", arguments: [state.stampedSeq])
            guard !rows.isEmpty else { return true }
            for row in rows {
                // The clock of the moment the change was written (D441).
                left -= try identities.stamping(at: row[4]) {
                    try stamp(type: row[1], entityId: row[2], data: row[3], state: &state, identities: identities, stampedWhole: &stampedWhole)
                }
                state.stampedSeq = row[0]
                if left <= 0 { break }
            }
        }
        return try db.cachedValue(Bool.self, sql: "SELECT NOT EXISTS (SELECT 1 FROM change_log WHERE seq > ?)", arguments: [state.stampedSeq]) ?? true
    }

    /// Stamps what one event touched; returns how many things.
    private static func stamp(type: String, entityId: String, data: String, state: inout SyncStateRow, identities: SyncIdentities,
                              stampedWhole: inout Set<String>) throws -> Int {
        let db = identities.db
        switch ChangeEventType(rawValue: type) {
        case .settingsUpdated, .setupCompleted:
            try identities.stamp(SettingsSync.self, localId: 1)
            return 1
        case .walletCreated, .walletUpdated, .walletArchived:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(WalletSync.self, localId: id)
            return 1
        case .categoryCreated, .categoryUpdated:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(CategorySync.self, localId: id)
            return 1
        case .budgetCreated, .budgetUpdated, .budgetDeleted:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(BudgetSync.self, localId: id)
            return 1
        case .recurringCreated, .recurringUpdated, .recurringDeleted:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(RecurringSync.self, localId: id)
            return 1
        // A contribution, a valuation, an entry has no event of its own: the goal, asset or
        // liability it changed says `….updated`.
        case .goalCreated, .goalUpdated:
            guard let id = Int64(entityId) else { return 0 }
            return try stampWhole(GoalSync.self, id: id, with: GoalContributionSync.self, identities: identities, stampedWhole: &stampedWhole) {
                try GoalContributionSync.ids(ofGoal: id, db)
            }
        case .manualAssetCreated, .manualAssetUpdated:
            guard let id = Int64(entityId) else { return 0 }
            return try stampWhole(ManualAssetSync.self, id: id, with: AssetValuationSync.self, identities: identities, stampedWhole: &stampedWhole) {
                try AssetValuationSync.ids(ofAsset: id, db)
            }
        case .liabilityCreated, .liabilityUpdated:
            guard let id = Int64(entityId) else { return 0 }
            return try stampWhole(LiabilitySync.self, id: id, with: LiabilityEntrySync.self, identities: identities, stampedWhole: &stampedWhole) {
                try LiabilityEntrySync.ids(ofLiability: id, db)
            }
        case .rateProfileCreated, .rateProfileUpdated:
            // The profile in use is a setting (D311): `rates profile use` changes the settings.
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(RateProfileSync.self, localId: id)
            try identities.stamp(SettingsSync.self, localId: 1)
            return 2
        case .ratesUpdated:
            // Only typed rates are synced. The event names at most 100 pairs and only the newest
            // moment (a `rates.batch` with source `manual` may store many), so every typed rate of
            // the profile is stamped: an unchanged one sends nothing.
            let summary = try MessageCoding.decoder().decode(RatesUpdatedSummary.self, from: .init(data.utf8))
            guard summary.source == "manual" else { return 0 }
            return try stampWhole(nil, id: summary.profileId, with: ManualRateSync.self, identities: identities, stampedWhole: &stampedWhole) {
                try ManualRateSync.ids(profileId: summary.profileId, db)
            }
        case .rateOverrideEnded:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(ManualRateSync.self, localId: id)
            return 1
        case .netWorthSnapshotTaken:
            guard let id = NetWorthSnapshotSync.localId(month: entityId) else { return 0 }
            try identities.stamp(NetWorthSnapshotSync.self, localId: id)
            return 1
        case .investAccountCreated, .investAccountUpdated:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(InvestAccountSync.self, localId: id)
            return 1
        case .assetCreated, .assetUpdated:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(SecuritySync.self, localId: id)
            return 1
        // An import logs each trade's `invest.trade.recorded` too; a deleted trade's stamp is
        // its tombstone. A trade's cash says `tx.created` and is not synced apart from it.
        case .tradeRecorded, .tradeDeleted:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(TradeSync.self, localId: id)
            return 1
        case .pricesUpdated:
            // Only typed prices are synced; the event names the securities a batch touched.
            let summary = try MessageCoding.decoder().decode(PricesUpdatedSummary.self, from: .init(data.utf8))
            var stamped = 0
            for assetId in summary.assetIds {
                stamped += try stampWhole(nil, id: assetId, with: SecurityPriceSync.self, identities: identities, stampedWhole: &stampedWhole) {
                    try SecurityPriceSync.ids(assetId: assetId, db)
                }
            }
            return stamped
        case .allocationUpdated:
            // The targets are a setting (one field), merged as one.
            try identities.stamp(SettingsSync.self, localId: 1)
            return 1
        case .alertRaised:
            guard let id = Int64(entityId) else { return 0 }
            try identities.stamp(AlertSync.self, localId: id)
            return 1
        case .txCreated, .txUpdated, .txDeleted:
            guard let id = Int64(entityId) else { return 0 }
            try stampTransaction(id, identities: identities)
            return 1
        case .txImported:
            let summary = try MessageCoding.decoder().decode(TransactionImportSummary.self, from: .init(data.utf8))
            guard let first = summary.firstId, let last = summary.lastId else { return 0 }
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM transactions WHERE id BETWEEN ? AND ? AND import_id = ? ORDER BY id", arguments: [first, last, summary.importId])
            for id in ids { try stampTransaction(id, identities: identities) }
            return ids.count
        case .txImportUndone:
            let summary = try MessageCoding.decoder().decode(TransactionImportSummary.self, from: .init(data.utf8))
            guard let first = summary.firstId, let last = summary.lastId else { return 0 }
            // The transactions are gone: their identities say which were synced.
            let gone = try Row.fetchAll(db, sql: """
                SELECT entity, local_id FROM sync_ids WHERE entity IN ('transaction', 'transfer') AND local_id BETWEEN ? AND ?
                  AND local_id NOT IN (SELECT id FROM transactions WHERE id BETWEEN ? AND ?) ORDER BY local_id
                """, arguments: [first, last, first, last])
            for row in gone {
                try identities.stamp((row[0] as String) == TransferSync.entity ? TransferSync.self : TransactionSync.self, localId: row[1])
            }
            return gone.count
        case .ledgerRestored:
            state.scanEntity = SyncedThings.all.first?.entity
            state.scanAfter = 0
            return 1
        default:
            return 0
        }
    }

    /// A thing and its history (`parent` nil: the history alone, a profile's typed rates), once
    /// per run (see `run`); returns how many things were stamped.
    private static func stampWhole(_ parent: (any SyncedThing.Type)?, id: Int64, with child: any SyncedThing.Type, identities: SyncIdentities,
                                   stampedWhole: inout Set<String>, history: () throws -> [Int64]) throws -> Int {
        guard stampedWhole.insert("\(child.entity) of \(id)").inserted else { return 0 }
        if let parent { try identities.stamp(parent, localId: id) }
        let ids = try history()
        for childId in ids { try identities.stamp(child, localId: childId) }
        return (parent == nil ? 0 : 1) + ids.count
    }

    /// A transaction or a transfer leg, whichever it is (or was, once deleted); a trade's cash
    /// stamps its trade (a base amount filled in later changes the trade's `cash`).
    private static func stampTransaction(_ id: Int64, identities: SyncIdentities) throws {
        let db = identities.db
        if let trade = try db.cachedValue(Int64.self, sql: "SELECT trade_id FROM transactions WHERE id = ?", arguments: [id]),
           try TradeRow.exists(db, id: trade) {
            try identities.stamp(TradeSync.self, localId: trade)
        } else if let outgoing = try TransferSync.outgoingLeg(db, id: id) {
            try identities.stamp(TransferSync.self, localId: outgoing)
        } else if try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM transactions WHERE id = ?)", arguments: [id]) == true {
            try identities.stamp(TransactionSync.self, localId: id)
        } else if try SyncIdentityRow.find(db, entity: TransferSync.entity, localId: id) != nil {
            try identities.stamp(TransferSync.self, localId: id)
        } else {
            try identities.stamp(TransactionSync.self, localId: id)
        }
    }
}
