import GRDB

/// The ids of the `conversion_snapshots` rows a write refers to (D372): each snapshot's text is
/// stored once, and a transaction keeps the ids of its two.
///
/// Why a per-write memory: a batch of an import refers to a handful of snapshots (one per
/// currency and day) thousands of times. The few most recent are compared first, since the texts
/// of one day's conversions are the same strings (`ConversionCache.json` encodes each snapshot
/// once), which compare without reading their bytes; the others are found by text in a dictionary,
/// then in the table, and a new one is inserted. It lives for one SQL transaction, like the writer
/// that owns it, so an id it remembers is never one rolled back.
final class ConversionSnapshotIds {
    private let db: Database
    private var known: [String: Int64] = [:]
    private var recent: [(snapshot: String, id: Int64)] = []

    init(db: Database) {
        self.db = db
    }

    /// The id of `snapshot`'s row, inserted when no transaction has referred to it yet.
    func id(of snapshot: String?) throws -> Int64? {
        guard let snapshot else { return nil }
        if let hit = recent.first(where: { $0.snapshot == snapshot }) { return hit.id }
        let id: Int64
        if let remembered = known[snapshot] {
            id = remembered
        } else if let stored = try db.cachedValue(Int64.self, sql: "SELECT id FROM conversion_snapshots WHERE snapshot = ?", arguments: [snapshot]) {
            id = stored
        } else {
            try db.execute(cached: "INSERT INTO conversion_snapshots (snapshot) VALUES (?)", arguments: [snapshot])
            id = db.lastInsertedRowID
        }
        known[snapshot] = id
        if recent.count == 4 { recent.removeFirst() }
        recent.append((snapshot, id))
        return id
    }
}
