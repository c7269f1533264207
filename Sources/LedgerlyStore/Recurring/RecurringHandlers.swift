import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `recurring.create|list|pause|delete|post`. The schedule itself runs in `ledgerly-alerts`
/// (docs/decisions.md): it sends `recurring.post` for each occurrence due, keyed by the
/// occurrence, and this handler posts it and moves to the next in one SQL transaction, so an
/// occurrence is handled exactly once whatever crashes or retries happen. `RecurringRow` reads and
/// writes the table.
enum RecurringHandlers {
    /// A template's record, for the rules below and other features.
    static func fetch(_ db: Database, id: Int64, field: FieldPath) throws -> RecurringRecord {
        try RecurringRow.find(db, id: id, field: field).record
    }

    static func recurrence(_ record: RecurringRecord) -> Recurrence? {
        guard let start = LedgerDate(record.startDate) else { return nil }
        let unit: Recurrence.Unit = switch record.frequency {
        case .daily: .day
        case .weekly: .week
        case .monthly: .month
        case .yearly: .year
        }
        return Recurrence(unit: unit, every: record.every, start: start)
    }

    /// Occurrence `index`, or nil when past the end date (or the calendar).
    static func occurrence(_ record: RecurringRecord, index: Int) -> String? {
        guard let date = recurrence(record)?.occurrence(index) else { return nil }
        if let end = record.endDate, date.description > end { return nil }
        return date.description
    }

    static func create(_ request: RecurringCreateRequest, _ context: inout WriteContext) throws -> RecurringRecord {
        let db = context.db
        let name = try InputRules.name(request.name, field: .body("name"))
        if try RecurringRow.id(named: name, db) != nil {
            throw LedgerError.conflict("a recurring transaction named '\(name)' already exists", field: .body("name"))
        }
        let template = request.template
        let wallet = try WalletRow.active(db, id: template.walletId, field: .body("template").member("walletId")).record
        let currency = try InputRules.currency(template.currency ?? wallet.currency, field: .body("template").member("currency"))
        _ = try InputRules.positiveAmount(template.amount, currency: currency, field: .body("template").member("amount"))
        if let categoryId = template.categoryId { try CategoryRow.requireExists(db, id: categoryId, field: .body("template").member("categoryId")) }
        _ = try InputRules.optionalText(template.notes, field: .body("template").member("notes"))
        let every = request.every ?? 1
        guard (1...1_000).contains(every) else { throw LedgerError.invalid("body.every must be 1 to 1000, got \(every)", field: .body("every")) }
        let start = try InputRules.date(request.startDate, field: .body("startDate"))
        if let end = request.endDate {
            guard try InputRules.date(end, field: .body("endDate")) >= start else {
                throw LedgerError.invalid("body.endDate \(end) is before body.startDate \(start)", field: .body("endDate"))
            }
        }
        var row = try RecurringRow(
            name: name, template: template, frequency: request.frequency, every: every, startDate: start.description, endDate: request.endDate,
            nextIndex: 0, nextRun: start.description, mode: request.mode ?? .post, paused: false, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        let created = row.record
        try context.record(.recurringCreated, id: String(created.id), data: created)
        return created
    }

    static func list(_ request: RecurringListRequest, _ db: Database) throws -> RecurringListReply {
        RecurringListReply(recurring: try RecurringRow.order(RecurringRow.Columns.name).fetchAll(db).map(\.record))
    }

    /// Pausing stops occurrences; resuming skips the ones that fell due meanwhile (a paused rent
    /// is not posted three times on resume) and continues from the first one not yet past.
    static func pause(_ request: RecurringPauseRequest, _ context: inout WriteContext) throws -> RecurringRecord {
        let db = context.db
        var row = try RecurringRow.find(db, id: request.id, field: .body("id"))
        let current = row.record
        guard current.paused != request.paused else { return current }
        if !request.paused {
            let today = Timestamp.today(at: context.date)
            var index = row.nextIndex
            while let date = occurrence(current, index: index), date < today { index += 1 }
            row.nextIndex = index
            row.nextRun = occurrence(current, index: index)
        }
        row.paused = request.paused
        row.updatedAt = context.now
        try row.update(db)
        let updated = row.record
        try context.record(.recurringUpdated, id: String(updated.id), data: updated)
        return updated
    }

    static func delete(_ request: RecurringDeleteRequest, _ context: inout WriteContext) throws -> RecurringRecord {
        let row = try RecurringRow.find(context.db, id: request.id, field: .body("id"))
        let existing = row.record
        try row.delete(context.db)
        try context.record(.recurringDeleted, id: String(existing.id), data: existing)
        return existing
    }

    static func post(_ request: RecurringPostRequest, _ context: inout WriteContext) throws -> RecurringPostReply {
        let db = context.db
        var row = try RecurringRow.find(db, id: request.id, field: .body("id"))
        let current = row.record
        guard !current.paused else {
            throw LedgerError.conflict("'\(current.name)' is paused; nothing is posted", field: .body("id"))
        }
        guard let due = current.nextRun, due == request.occurrence else {
            throw LedgerError.conflict("'\(current.name)' has no occurrence \(request.occurrence) due (next: \(current.nextRun ?? "none"))", field: .body("occurrence"))
        }
        var transaction: TransactionRecord?
        // Only a posted occurrence has a global id; a reminder is this device's own.
        let synced = current.mode == .post ? try SyncOccurrence.recurring(db, recurringId: current.id, date: due, now: context.date) : nil
        // Posted on another device (or posted there and deleted): this device only moves on.
        let postedElsewhere = try synced?.isKnown() == true
        if current.mode == .post, !postedElsewhere {
            let template = current.template
            let posted = try context.undoingRefusal { context in
                try TransactionHandlers.create(TransactionCreateRequest(
                    kind: template.kind, walletId: template.walletId, amount: template.amount, currency: template.currency, categoryId: template.categoryId,
                    notes: template.notes ?? current.name, date: due, tags: template.tags), &context)
            }
            switch posted {
            case .success(let record):
                transaction = record
                try synced?.claim(localId: record.id)
            case .failure(let refusal): return try block(current, occurrence: due, because: refusal, &context)
            }
        }
        row.nextIndex += 1
        row.nextRun = occurrence(current, index: row.nextIndex)
        row.updatedAt = context.now
        try row.update(db)
        let updated = row.record
        try context.record(.recurringUpdated, id: String(updated.id), data: updated)
        // The reminder commits with the occurrence: a crash cannot post one without the other.
        if !postedElsewhere, try SettingsHandlers.fetch(db).notifications.recurringReminders {
            let amount = "\(current.template.amount) \(transaction?.currency ?? current.template.currency ?? "")".trimmingCharacters(in: .whitespaces)
            try AlertHandlers.insert(AlertRaiseRequest(
                kind: .recurringDue, key: "recurring:\(current.id):\(due)", subject: current.name,
                message: current.mode == .post ? "\(current.name): \(amount) posted for \(due)" : "\(current.name): \(amount) is due on \(due)",
                period: due,
                data: .object(["recurringId": .integer(current.id), "occurrence": .string(due), "mode": .string(current.mode.rawValue),
                               "transactionId": transaction.map { .integer($0.id) } ?? .null])), &context)
        }
        return RecurringPostReply(recurring: updated, occurrence: due, transaction: transaction, postedElsewhere: postedElsewhere ? true : nil)
    }

    /// An occurrence the store refuses to post (the template's wallet archived, a rate missing
    /// for its currency) would otherwise be retried every few seconds, forever and unseen (D81).
    /// Instead, in this one write: the template is paused, so it stops failing, and a
    /// `recurring.blocked` alert (key `recurring:<id>:<date>:blocked`, raised once) tells the
    /// user why and how to go on. Resuming goes on from the next occurrence due, as after any
    /// pause (the alert says so).
    private static func block(_ current: RecurringRecord, occurrence due: String, because refusal: LedgerError, _ context: inout WriteContext) throws -> RecurringPostReply {
        let db = context.db
        var row = try RecurringRow.find(db, id: current.id, field: .body("id"))
        row.paused = true
        row.updatedAt = context.now
        try row.update(db)
        let paused = row.record
        try context.record(.recurringUpdated, id: String(paused.id), data: paused)
        try AlertHandlers.insert(AlertRaiseRequest(
            kind: .recurringBlocked, key: "recurring:\(current.id):\(due):blocked", subject: current.name,
            message: "\(current.name): the \(due) occurrence could not be posted (\(refusal.reason)); the template is paused. Fix that and `ledgerly recurring resume \(current.id)`: it goes on from the next occurrence due, so record this one by hand if it is still owed.",
            period: due,
            data: .object(["recurringId": .integer(current.id), "occurrence": .string(due), "code": .string(refusal.errorBody.code.rawValue),
                           "field": refusal.field.map { .string($0.wire) } ?? .null])), &context)
        return RecurringPostReply(recurring: paused, occurrence: due, transaction: nil, blocked: refusal.reason)
    }
}
