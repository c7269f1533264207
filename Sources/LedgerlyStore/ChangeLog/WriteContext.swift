import Foundation
import GRDB
import LedgerlyProtocol

/// What a write handler works with: the open SQL transaction, the time of the write, and the
/// change log, where every change is appended in the same transaction as the change itself.
struct WriteContext {
    let db: Database
    let epoch: String
    /// The moment of the write, from the service clock, and as the stored text.
    let date: Date
    let now: String
    private(set) var events: [EncodedChangeEvent] = []

    init(db: Database, epoch: String, date: Date = Date()) {
        self.db = db
        self.epoch = epoch
        self.date = date
        self.now = Timestamp.string(from: date)
    }

    /// Appends a change-log row; the event is published after the transaction commits.
    mutating func record<Data: Encodable>(_ type: ChangeEventType, id: String, data: Data) throws {
        let json = try MessageCoding.encode(data)
        try ChangeLogRow.append(db, ts: now, type: type.rawValue, entity: type.entity, entityId: id, data: String(decoding: json, as: UTF8.self))
        events.append(try EncodedChangeEvent(seq: db.lastInsertedRowID, epoch: epoch, type: type.rawValue, ts: now, entity: type.entity, id: id, dataJSON: json))
    }

    /// Runs `body` in a savepoint. When it refuses (throws a `LedgerError` other than
    /// `broken`), its database changes and its events are undone and the refusal is returned,
    /// so the caller can record another outcome in the same write (a recurring occurrence that
    /// cannot be posted pauses its template instead).
    mutating func undoingRefusal<T>(_ body: (inout WriteContext) throws -> T) throws -> Result<T, LedgerError> {
        let kept = events.count
        var outcome: Result<T, LedgerError>?
        try db.inSavepoint {
            do {
                outcome = .success(try body(&self))
                return .commit
            } catch let refusal as LedgerError where refusal.kind != .broken {
                outcome = .failure(refusal)
                return .rollback
            }
        }
        if case .failure = outcome { events.removeSubrange(kept...) }
        return outcome!
    }
}
