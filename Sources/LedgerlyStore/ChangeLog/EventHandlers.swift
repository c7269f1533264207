import Foundation
import GRDB
import LedgerlyProtocol

/// `events.since`: the change log read back for subscribers catching up (Clone pattern).
enum EventHandlers {
    static func since(_ request: EventsSinceRequest, _ context: ReadContext) throws -> EventsSinceReply {
        let db = context.db, epoch = context.epoch
        let limit = request.limit ?? 500
        guard (1...1_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 1000, got \(limit)", field: .body("limit")) }
        guard request.after >= 0 else { throw LedgerError.invalid("body.after must not be negative", field: .body("after")) }
        let decoder = MessageCoding.decoder()
        let events = try ChangeLogRow.after(request.after, limit: limit, db).map { row in
            ChangeEvent(
                seq: row.seq, epoch: epoch, type: row.type, ts: row.ts, entity: row.entity, id: row.entityId,
                data: (try? decoder.decode(JSONValue.self, from: Data(row.data.utf8))) ?? .null)
        }
        return EventsSinceReply(epoch: epoch, lastSeq: try lastSeq(db), events: events)
    }

    static func lastSeq(_ db: Database) throws -> Int64 {
        try ChangeLogRow.lastSeq(db)
    }
}
