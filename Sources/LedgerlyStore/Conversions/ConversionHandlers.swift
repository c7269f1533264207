import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `convert` and `convert.history`: conversions on request, each kept in a history.
enum ConversionHandlers {
    static func convert(_ request: ConvertRequest, _ context: inout WriteContext) throws -> ConversionRecord {
        let db = context.db
        let from = try InputRules.currency(request.from, field: .body("from"))
        let base = try SettingsHandlers.baseCurrency(db)
        guard let targetCode = request.to ?? base else {
            throw LedgerError.invalid("body.to is required until a base currency is set", field: .body("to"))
        }
        let target = try InputRules.currency(targetCode, field: .body("to"))
        let amount = try InputRules.amount(request.amount, currency: from, field: .body("amount"))
        let moment = try request.at.map { text throws(LedgerError) in try InputRules.moment(text, field: .body("at"), date: .endOfDay) }
        let profile = try RateHandlers.activeProfile(db, id: request.profileId, mode: request.mode, field: .body("profileId"))
        let lookup = try RateLookup(db: db, profile: profile, now: moment ?? context.date)
        let (conversion, snapshot) = try lookup.convert(amount, to: target, base: base, at: moment, field: .body("from"))
        // A historical conversion is not "stale": it asked for the rate of that day.
        let warning = moment == nil ? lookup.warning(for: conversion) : nil
        if request.preview == true {
            return ConversionRecord(
                id: 0, amount: amount.decimalString, from: from.code, result: conversion.result.decimalString,
                to: target.code, snapshot: moment == nil ? snapshot : staleCleared(snapshot), warning: warning, createdAt: context.now)
        }
        var row = try ConversionRow(amount: amount.decimalString, fromCurrency: from.code, result: conversion.result.decimalString, toCurrency: target.code,
                                    snapshot: snapshot, warning: warning, createdAt: context.now)
        try row.insert(db)
        let record = ConversionRecord(
            id: row.id ?? 0, amount: amount.decimalString, from: from.code, result: conversion.result.decimalString,
            to: target.code, snapshot: moment == nil ? snapshot : staleCleared(snapshot), warning: warning, createdAt: context.now)
        try context.record(.conversionRecorded, id: String(record.id), data: record)
        return record
    }

    static func history(_ request: ConversionHistoryRequest, _ db: Database) throws -> ConversionHistoryReply {
        let limit = request.limit ?? 20
        guard (1...1_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 1000, got \(limit)", field: .body("limit")) }
        let rows = try ConversionRow.page(db, afterId: InputRules.pageCursor(request.afterId, field: .body("afterId")), limit: limit)
        return ConversionHistoryReply(conversions: try rows.map { try $0.record() })
    }

    private static func staleCleared(_ snapshot: RateSnapshot) -> RateSnapshot {
        var copy = snapshot
        copy.stale = false
        return copy
    }
}
