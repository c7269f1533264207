import GRDB

/// The ids of the `conversion_snapshots` rows a write refers to (D372): each snapshot's text is
/// stored once, and a transaction keeps the ids of its two.
///
/// Why a per-write memory (`RecentFirstMemo`): a batch of an import refers to a handful of
/// snapshots (one per currency and day) thousands of times, and the texts of one day's conversions
/// are the same strings (`ConversionCache.json` encodes each snapshot once). A text not yet met is
/// found in the table, or inserted. It lives for one SQL transaction, like the writer that owns
/// it, so an id it remembers is never one rolled back.
final class ConversionSnapshotIds {
    private let db: Database
    private var ids = RecentFirstMemo<String, Int64>()

    init(db: Database) {
        self.db = db
    }

    /// The id of `snapshot`'s row, inserted when no transaction has referred to it yet.
    func id(of snapshot: String?) throws -> Int64? {
        guard let snapshot else { return nil }
        let db = db
        return try ids.value(for: snapshot) { snapshot in
            if let stored = try db.cachedValue(Int64.self, sql: "SELECT id FROM conversion_snapshots WHERE snapshot = ?", arguments: [snapshot]) {
                return stored
            }
            try db.execute(cached: "INSERT INTO conversion_snapshots (snapshot) VALUES (?)", arguments: [snapshot])
            return db.lastInsertedRowID
        }
    }
}
