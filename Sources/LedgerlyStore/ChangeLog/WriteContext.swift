import GRDB
import LedgerlyProtocol

/// What a write handler works with: the open SQL transaction, the time of the write, and the
/// change log, where every change is appended in the same transaction as the change itself.
struct WriteContext {
    let db: Database
    let epoch: String
    let now: String
    private(set) var events: [EncodedChangeEvent] = []

    init(db: Database, epoch: String, now: String = Timestamp.now()) {
        self.db = db
        self.epoch = epoch
        self.now = now
    }

    /// Appends a change-log row; the event is published after the transaction commits.
    mutating func record<Data: Encodable>(_ type: ChangeEventType, id: String, data: Data) throws {
        let json = try MessageCoding.encode(data)
        try db.execute(cached: "INSERT INTO change_log (ts, type, entity, entity_id, data) VALUES (?, ?, ?, ?, ?)",
            arguments: [now, type.rawValue, type.entity, id, String(decoding: json, as: UTF8.self)])
        events.append(try EncodedChangeEvent(seq: db.lastInsertedRowID, epoch: epoch, type: type.rawValue, ts: now, entity: type.entity, id: id, dataJSON: json))
    }
}
