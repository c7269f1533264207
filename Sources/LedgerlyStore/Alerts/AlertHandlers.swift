import Foundation
import LedgerlyCore
import GRDB
import LedgerlyProtocol

/// `alert.raise` and `alert.list`: the alert log. Its unique key is the whole exactly-once rule:
/// the alerts service may evaluate a change twice (a replay after a crash, two changes racing),
/// but a key is recorded and published once. `AlertRow` reads and writes the table.
enum AlertHandlers {
    static func raise(_ request: AlertRaiseRequest, _ context: inout WriteContext) throws -> AlertRaiseReply {
        try insert(request, &context)
    }

    /// Records an alert unless its key is taken; also used inside other writes (`recurring.post`)
    /// so the alert commits with the change it announces or not at all.
    @discardableResult
    static func insert(_ request: AlertRaiseRequest, _ context: inout WriteContext) throws -> AlertRaiseReply {
        let db = context.db
        let key = try InputRules.name(request.key, field: .body("key"))
        if let earlier = try AlertRow.filter(AlertRow.Columns.key == key).fetchOne(db) {
            return AlertRaiseReply(alert: earlier.record, duplicate: true)
        }
        let subject = try InputRules.name(request.subject, field: .body("subject"))
        guard let message = try InputRules.optionalText(request.message, field: .body("message"), limit: 1_000) else {
            throw LedgerError.invalid("body.message must not be empty", field: .body("message"))
        }
        let period = try InputRules.optionalText(request.period, field: .body("period"), limit: 20)
        var row = try AlertRow(kind: request.kind.rawValue, key: key, subject: subject, message: message, period: period,
                               threshold: request.threshold, data: request.data, raisedAt: context.now)
        try row.insert(db)
        let alert = row.record
        try context.record(.alertRaised, id: String(alert.id), data: alert)
        return AlertRaiseReply(alert: alert, duplicate: false)
    }

    static func list(_ request: AlertListRequest, _ db: Database) throws -> AlertListReply {
        let limit = request.limit ?? 1_000
        guard (1...10_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 10000, got \(limit)", field: .body("limit")) }
        // A date alone means from the start of that day.
        let since = try request.since.map { text throws(LedgerError) in Timestamp.string(from: try InputRules.moment(text, field: .body("since"), date: .startOfDay)) }
        let afterId = try InputRules.pageCursor(request.afterId, field: .body("afterId"))
        return AlertListReply(alerts: try AlertRow.page(db, after: afterId, since: since, limit: limit).map(\.record))
    }
}
