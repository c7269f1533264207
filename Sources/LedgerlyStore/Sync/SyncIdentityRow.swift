import GRDB
import LedgerlyProtocol

/// A row of `sync_ids`: one synced thing's global id, its local id (none once deleted: a
/// tombstone), each field's clock, and its fields as last sent or applied (what the next stamp
/// compares with).
struct SyncIdentityRow {
    let entity: String
    let gid: String
    var localId: Int64?
    var deleted: Bool
    var clocks: [String: String]
    var fields: SyncFields.Object

    static func find(_ db: Database, entity: String, localId: Int64) throws -> SyncIdentityRow? {
        try db.cachedRow(sql: "SELECT entity, gid, local_id, deleted, clocks, fields FROM sync_ids WHERE entity = ? AND local_id = ?", arguments: [entity, localId]).map(Self.init)
    }

    static func find(_ db: Database, entity: String, gid: String) throws -> SyncIdentityRow? {
        try db.cachedRow(sql: "SELECT entity, gid, local_id, deleted, clocks, fields FROM sync_ids WHERE entity = ? AND gid = ?", arguments: [entity, gid]).map(Self.init)
    }

    init(entity: String, gid: String, localId: Int64?, deleted: Bool, clocks: [String: String], fields: SyncFields.Object) {
        self.entity = entity
        self.gid = gid
        self.localId = localId
        self.deleted = deleted
        self.clocks = clocks
        self.fields = fields
    }

    private init(row: Row) throws {
        entity = row[0]
        gid = row[1]
        localId = row[2]
        deleted = row[3]
        clocks = try SyncFields.clocks(text: row[4])
        fields = try SyncFields.object(text: row[5])
    }

    func insert(_ db: Database) throws {
        try db.execute(cached: "INSERT INTO sync_ids (entity, gid, local_id, deleted, clocks, fields) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [entity, gid, localId, deleted, try SyncFields.text(clocks), try SyncFields.text(fields)])
    }

    func save(_ db: Database) throws {
        try db.execute(cached: "UPDATE sync_ids SET local_id = ?, deleted = ?, clocks = ?, fields = ? WHERE entity = ? AND gid = ?",
                       arguments: [localId, deleted, try SyncFields.text(clocks), try SyncFields.text(fields), entity, gid])
    }
}
