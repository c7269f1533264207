import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `rates.export` and `rates.restore`: the whole rate history out of one ledger and into another,
/// every column as it was (unlike `rates.batch`, which is how rates arrive from the outside and
/// confirms and corrects them).
enum RateHistoryHandlers {
    static func export(_ request: RateExportRequest, _ db: Database) throws -> RateExportReply {
        let limit = request.limit ?? 5_000
        guard (1...RateExportRequest.maximumLimit).contains(limit) else {
            throw LedgerError.invalid("body.limit must be 1 to \(RateExportRequest.maximumLimit), got \(limit)", field: .body("limit"))
        }
        let after = try InputRules.pageCursor(request.afterId, field: .body("afterId")) ?? 0
        let rows = try RateRow.page(db, after: after, limit: limit + 1)
        let rates = rows.prefix(limit).map { row in
            var rate = row.record()
            rate.revision = row.revision
            return rate
        }
        return RateExportReply(rates: rates, nextAfterId: rows.count > limit ? rates.last?.id : nil)
    }

    /// One `rates.updated` summary per profile, as a provider batch has, so followers that watch
    /// rates (staleness) look again.
    static func restore(_ request: RateRestoreRequest, _ context: inout WriteContext) throws -> RateRestoreReply {
        let db = context.db
        guard (1...RateRestoreRequest.maximumRates).contains(request.rates.count) else {
            throw LedgerError.invalid("body.rates must hold 1 to \(RateRestoreRequest.maximumRates) rates, got \(request.rates.count)", field: .body("rates"))
        }
        var stored: [Int64: [RateRecord]] = [:]
        var skipped = 0
        var knownProfiles = Set<Int64>()
        for (index, rate) in request.rates.enumerated() {
            let field = FieldPath.body("rates")[index]
            if knownProfiles.insert(rate.profileId).inserted { _ = try RateHandlers.profile(db, id: rate.profileId, field: field.member("profileId")) }
            let (base, quote) = try RateHandlers.pair(rate.base, rate.quote)
            let value = try RateHandlers.exchangeRate(rate.rate, field: field.member("rate"))
            let inverse = try RateHandlers.exchangeRate(rate.inverseRate, field: field.member("inverseRate"))
            let asOf = try InputRules.timestamp(rate.asOf, field: field.member("asOf"))
            let confirmedAt = try rate.confirmedAt.map { text throws(LedgerError) in try InputRules.timestamp(text, field: field.member("confirmedAt")) }
            let overrideEndedAt = try rate.overrideEndedAt.map { text throws(LedgerError) in try InputRules.timestamp(text, field: field.member("overrideEndedAt")) }
            // A moment may hold a source's corrections (D402), and a correction may go back to an
            // earlier value (1.08, 1.09, 1.08 again), so a value alone does not say whether a row
            // is already here (D470). With its exported revision, the row is here when that
            // revision of the moment holds that value; without one (an older export), when the
            // moment's newest revision does, as `rates.batch` confirms. Either way restoring
            // twice stores nothing twice, and anything else is the moment's next revision:
            // rates arrive in id order, so corrections keep their order.
            let source = try InputRules.name(rate.source, field: field.member("source"))
            if let revision = rate.revision, revision < 0 {
                throw LedgerError.invalid("body.rates[\(index)].revision must be 0 or more, got \(revision)", field: field.member("revision"))
            }
            let known = try RateRow.revisions(db, profileId: rate.profileId, base: base, quote: quote, asOf: asOf, source: source)
            let alreadyHere = rate.revision.map { revision in known.contains { $0.revision == revision && $0.rate == value.decimalString } }
                ?? (known.last.map { $0.rate == value.decimalString } ?? false)
            guard !alreadyHere else {
                skipped += 1
                continue
            }
            try RateRow.insertRestored(db, profileId: rate.profileId, base: base, quote: quote, rate: value, inverse: inverse, source: source,
                                       asOf: asOf, confidence: rate.confidence.rawValue, customOverride: rate.customOverride,
                                       overrideEndedAt: overrideEndedAt, confirmedAt: confirmedAt, now: context.now,
                                       revision: (known.map(\.revision).max() ?? -1) + 1)
            stored[rate.profileId, default: []].append(rate)
        }
        for (profileId, rates) in stored.sorted(by: { $0.key < $1.key }) {
            let pairs = Array(Set(rates.map { "\($0.base)/\($0.quote)" })).sorted()
            try context.record(.ratesUpdated, id: String(profileId), data: RatesUpdatedSummary(
                profileId: profileId, source: "restore", stored: rates.count, confirmed: 0, pairs: Array(pairs.prefix(100)), truncated: pairs.count > 100,
                newestAsOf: rates.map(\.asOf).max()))
        }
        return RateRestoreReply(stored: stored.values.reduce(0) { $0 + $1.count }, skipped: skipped)
    }
}
