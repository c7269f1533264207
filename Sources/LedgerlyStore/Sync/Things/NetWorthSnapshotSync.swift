import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Monthly net-worth snapshots. The global id is the month (`snapshot:<YYYY-MM>`), so snapshots
/// two devices' schedules take of one month while apart are one. A snapshot is one figure set
/// taken at one moment: it travels as a single field, never a mix of two devices' figures. Of two
/// snapshots of one month the one taken first stands, whatever the clocks say: a snapshot is taken
/// once, and a device that joins takes the months it sees missing before the ledger has reached it
/// (D309). Its items name the ids of the device that took it, as taken.
///
/// The local id is the month as a number (2026-10 is 202610): the table is keyed by month.
enum NetWorthSnapshotSync: SyncedThing {
    static let entity = "networth_snapshot"

    private struct Fields: Codable {
        var snapshot: NetWorthSnapshotRecord
    }

    static func localId(month: String) -> Int64? {
        guard month.count == 7, let year = Int64(month.prefix(4)), let number = Int64(month.suffix(2)), (1...12).contains(number) else { return nil }
        return year * 100 + number
    }

    static func month(localId: Int64) -> String {
        let year = String(localId / 100), number = String(localId % 100)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + (number.count < 2 ? "0" : "") + number
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        let months = try NetWorthSnapshotRow.months(db, after: after == 0 ? "" : month(localId: after), limit: limit)
        let ids = months.compactMap(localId(month:))
        return (ids, ids.last ?? after)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? { "snapshot:\(month(localId: id))" }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let row = try NetWorthSnapshotRow.find(db, month: month(localId: id)) else { return nil }
        return try SyncFields.object(Fields(snapshot: try row.record(includeItems: true)))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let field = FieldPath.body("messages")
        let snapshot = try SyncFields.decode(Fields.self, from: object, entity: entity).snapshot
        guard gid == "snapshot:\(snapshot.month)", let id = Self.localId(month: snapshot.month) else {
            throw LedgerError.invalid("a synced net-worth snapshot of \(snapshot.month) does not have that month's id (\(gid))", field: field)
        }
        // The one here stands when it was taken first (ties: the smaller figures' text, so every
        // device picks the same); it is then stamped again, and the others take it.
        if let row = try NetWorthSnapshotRow.find(context.db, month: snapshot.month) {
            let kept = try row.record(includeItems: true)
            let keptText = try SyncFields.text(kept), arrivedText = try SyncFields.text(snapshot)
            if keptText == arrivedText { return id }
            if (kept.takenAt, keptText) < (snapshot.takenAt, arrivedText) {
                // Its event has the stamp send it on, with a newer clock than the message's.
                try context.record(.netWorthSnapshotTaken, id: kept.month, data: kept)
                return id
            }
        }
        try NetWorthRestoreHandler.restore(snapshot, replacing: true, context.db, field: field)
        try context.record(.netWorthSnapshotTaken, id: snapshot.month, data: snapshot)
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "the net-worth snapshot of \(month(localId: localId)) was deleted on another device, but a snapshot is kept once taken: it stays here"
    }
}
