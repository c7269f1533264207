import Foundation
import LedgerlyCore
import GRDB
import LedgerlyProtocol

/// `rates.provider.report` and `rates.provider.list`: each provider's last attempt, kept by the
/// store so its health outlives the rates service and reaches every client and subscriber.
enum RateProviderHandlers {
    static func report(_ request: RateProviderReportRequest, _ context: inout WriteContext) throws -> RateProviderStatus {
        let name = try InputRules.name(request.name, field: .body("name"))
        let profile = try InputRules.name(request.profile, field: .body("profile"))
        let attemptedAt = try RateHandlers.moment(request.attemptedAt, field: .body("attemptedAt"), now: context.date)
        let nextAttemptAt = try request.nextAttemptAt.map { text throws(LedgerError) in try InputRules.timestamp(text, field: .body("nextAttemptAt")) }
        for (count, field) in [(request.consecutiveFailures, "consecutiveFailures"), (request.stored, "stored"), (request.confirmed, "confirmed")] where count < 0 {
            throw LedgerError.invalid("body.\(field) cannot be negative, got \(count)", field: .body(field))
        }
        let error = try InputRules.optionalText(request.error, field: .body("error"), limit: RateProviderStatus.maximumErrorLength)
        if let used = request.requestsUsed, used < 0 { throw LedgerError.invalid("body.requestsUsed cannot be negative, got \(used)", field: .body("requestsUsed")) }
        if let quota = request.requestQuota, quota < 1 { throw LedgerError.invalid("body.requestQuota must be at least 1, got \(quota)", field: .body("requestQuota")) }
        let quotaDay = try request.quotaDay.map { try InputRules.date($0, field: .body("quotaDay")).description }
        // A failure keeps the last success; a success clears the last error.
        try RateProviderRow.report(context.db, name: name, profile: profile, attemptedAt: attemptedAt, error: error,
                                   consecutiveFailures: request.consecutiveFailures, nextAttemptAt: nextAttemptAt, stored: request.stored,
                                   confirmed: request.confirmed, requestsUsed: request.requestsUsed, requestQuota: request.requestQuota, quotaDay: quotaDay)
        guard let stored = try RateProviderRow.fetchOne(context.db, key: name)?.record else {
            throw LedgerError.broken("the status of provider \(InputEcho.quoted(name)) was stored but cannot be read back")
        }
        try context.record(.rateProviderStatus, id: name, data: stored)
        return stored
    }

    static func list(_ request: RateProviderListRequest, _ db: Database) throws -> RateProviderListReply {
        RateProviderListReply(providers: try RateProviderRow.order(RateProviderRow.Columns.name).fetchAll(db).map(\.record))
    }
}
