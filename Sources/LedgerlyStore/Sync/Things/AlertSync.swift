import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The alert log. An alert's global id is its key (`alert:<key>`), which names the occurrence,
/// budget month or milestone it is about, so the same alert raised on two devices while apart
/// is one alert once they meet. The key travels with global ids where it names a thing by local
/// id (`SyncAlertKey`), and so do the ids in its data (`SyncAlertData`).
///
/// Who delivers: the device whose `ledgerly-alerts` raised it, to its own sinks. An alert that
/// arrives by sync is recorded quietly (no `alert.raised` event, so no sink delivers it again),
/// and since its key is now taken here, this device's alerts service does not raise it again.
enum AlertSync: SyncedThing {
    static let entity = "alert"

    private struct Fields: Codable {
        var kind: String
        var key: String
        var subject: String
        var message: String
        var period: String?
        var threshold: Int?
        var data: JSONValue?
        var raisedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "alerts", db, after: after, limit: limit)
    }

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? {
        try AlertRow.key(db, id: id).map { "alert:\(try SyncAlertKey.global($0, identities: identities))" }
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let alert = try AlertRow.fetchOne(db, key: id)?.record else { return nil }
        return try SyncFields.object(Fields(
            kind: alert.kind.rawValue, key: try SyncAlertKey.global(alert.key, identities: identities), subject: alert.subject, message: alert.message, period: alert.period,
            threshold: alert.threshold, data: try SyncAlertData.global(alert.data, identities: identities), raisedAt: alert.raisedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        guard AlertKind(rawValue: fields.kind) != nil else { throw LedgerError.invalid("a synced alert has kind '\(fields.kind)'", field: field) }
        // An alert synced before keys travelled with global ids keeps the id it was given then.
        guard gid == "alert:\(fields.key)" || localId != nil else {
            throw LedgerError.invalid("a synced alert's key \(fields.key) does not match its id \(gid)", field: field)
        }
        let key = try SyncAlertKey.local(InputRules.name(fields.key, field: field), identities: identities)
        // Keys are unique: another alert here under this key (one synced before keys travelled
        // with global ids, for another goal numbered alike) is a refusal with a notice, not a
        // failed batch.
        if let holder = try AlertRow.id(key: key, db), holder != localId {
            throw LedgerError.conflict("alert \(holder) here already has the key \(key)", field: field)
        }
        var row = try AlertRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: "alerts", db)), kind: fields.kind, key: key,
            subject: fields.subject, message: fields.message, period: fields.period, threshold: fields.threshold,
            data: try SyncAlertData.local(fields.data, identities: identities), raisedAt: fields.raisedAt)
        if localId != nil { try row.update(db) } else { try row.insert(db) }
        return row.id ?? db.lastInsertedRowID
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "alert \(localId) was deleted on another device, but the alert log keeps every alert: it stays"
    }
}
