import GRDB
import LedgerlyProtocol

/// One kind of synced thing: how its fields are read from the ledger and written back through
/// the ledger's own rules. Each kind lives in `Things/`.
///
/// Fields name other synced things by global id (`SyncIdentities`), never by local id.
protocol SyncedThing {
    /// The `entity` of its messages and of `sync_ids`.
    static var entity: String { get }
    /// At most `limit` of its local ids from scan position `after` (0 at first), in the order a
    /// first upload sends them (what another thing refers to comes first), and the position
    /// after them.
    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64)
    /// Its fields now; nil when it is gone or is not synced (a trade's cash, which moves with its
    /// trade).
    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object?
    /// Writes merged fields: a new thing when `localId` is nil (given `idHint` when that id is
    /// free), else over the thing. Records the ledger's ordinary change events. Returns its id.
    /// `gid` decides a name both devices gave while apart (`SyncNames`).
    static func write(_ fields: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64
    /// The global id every device gives it, for a thing two devices may each make while apart
    /// and that must end as one (the settings; a category's budget): nil, a new random id.
    /// A thing with such an id can be made again after a delete (docs/sync.md, "Merging").
    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String?
    /// Deletes it (a tombstone arrived); a kind that cannot be deleted keeps it and says so.
    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String?
    /// The delete, for a kind whose delete changes other things the user is told of (a trade's
    /// deletion may leave a later sale unapplied); the rest do what `delete` does.
    static func delete(localId: Int64, identities: SyncIdentities, _ context: inout WriteContext) throws -> String?
}

extension SyncedThing {
    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? { nil }

    static func delete(localId: Int64, identities: SyncIdentities, _ context: inout WriteContext) throws -> String? {
        try delete(localId: localId, &context)
    }

    /// The scan of a kind that is one table's rows (`filter`: which of them), in id order.
    static func scan(table: String, filter: String = "", _ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM \(table) WHERE id > ? \(filter.isEmpty ? "" : "AND \(filter) ")ORDER BY id LIMIT ?", arguments: [after, limit])
        return (ids, ids.last ?? after)
    }
}

/// The synced kinds, in the order a first upload sends them.
enum SyncedThings {
    static var all: [any SyncedThing.Type] {
        [SettingsSync.self, RateProfileSync.self, ManualRateSync.self, WalletSync.self, CategorySync.self, BudgetSync.self, RecurringSync.self,
         TransactionSync.self, TransferSync.self, GoalSync.self, GoalContributionSync.self, ManualAssetSync.self, AssetValuationSync.self,
         LiabilitySync.self, LiabilityEntrySync.self, NetWorthSnapshotSync.self, InvestAccountSync.self, SecuritySync.self, SecurityPriceSync.self, TradeSync.self,
         AlertSync.self]
    }

    static func kind(_ entity: String) -> (any SyncedThing.Type)? {
        all.first { $0.entity == entity }
    }
}
