import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.price.set|record|list|history|purge|wanted`: price snapshots of assets, from the user
/// and from the rates service (docs/investments.md, "Prices").
enum PriceHandlers {
    /// Snapshots kept whole, before only each day's close is kept.
    static let keptHours = 72
    static let maximumBatch = 10_000

    static func set(_ request: PriceSetRequest, _ context: inout WriteContext) throws -> PriceSnapshotRecord {
        let db = context.db
        let asset = try AssetRow.find(db, id: request.assetId, field: .body("assetId"))
        let asOf = try request.asOf.map { try RateHandlers.moment($0, field: .body("asOf"), now: context.date) } ?? context.now
        let input = PriceSnapshotInput(assetId: request.assetId, price: request.price, currency: request.currency ?? asset.quoteCurrency, source: "manual",
                                       asOf: asOf, confidence: .manual)
        guard let row = try insert(input, asset: asset, db: db, now: context, field: { .body($0) }) else {
            throw LedgerError.conflict("\(asset.symbol) already has a manual price at \(asOf)", field: .body("asOf"))
        }
        try context.record(.pricesUpdated, id: String(request.assetId), data: PricesUpdatedSummary(stored: 1, assetIds: [request.assetId]))
        return row.record(symbol: asset.symbol, now: context.date, staleMinutes: asset.staleMinutes(try SettingsRow.current(db)))
    }

    static func record(_ request: PriceRecordRequest, _ context: inout WriteContext) throws -> PriceRecordReply {
        let db = context.db
        guard request.snapshots.count <= maximumBatch else {
            throw LedgerError.invalid("body.snapshots holds \(request.snapshots.count) prices; send at most \(maximumBatch) per request", field: .body("snapshots"))
        }
        var assets: [Int64: AssetRow] = [:]
        var stored = 0
        var touched = Set<Int64>()
        for (index, input) in request.snapshots.enumerated() {
            let field = { (member: String) in FieldPath.body("snapshots")[index].member(member) }
            let asset = try assets[input.assetId] ?? AssetRow.find(db, id: input.assetId, field: field("assetId"))
            assets[input.assetId] = asset
            let source = try InputRules.name(input.source, field: field("source"))
            let asOf = try RateHandlers.moment(input.asOf, field: field("asOf"), now: context.date)
            let normalised = PriceSnapshotInput(assetId: input.assetId, price: input.price, currency: input.currency, source: source, asOf: asOf, confidence: input.confidence)
            if try insert(normalised, asset: asset, db: db, now: context, field: field) != nil {
                stored += 1
                touched.insert(input.assetId)
            }
        }
        if stored > 0 {
            try context.record(.pricesUpdated, id: "batch", data: PricesUpdatedSummary(stored: stored, assetIds: touched.sorted()))
        }
        return PriceRecordReply(stored: stored, duplicates: request.snapshots.count - stored)
    }

    /// Checks and stores one snapshot; nil when the store already has it (same asset, source and time).
    private static func insert(_ input: PriceSnapshotInput, asset: AssetRow, db: Database, now context: WriteContext, field: (String) -> FieldPath) throws -> PriceSnapshotRow? {
        let price = try TradeRules.price(input.price, field: field("price"))
        let currency = try InputRules.currency(input.currency, field: field("currency"))
        guard currency.code == asset.quoteCurrency else {
            throw LedgerError.invalid("\(asset.symbol) is quoted in \(asset.quoteCurrency), not \(currency.code)", field: field("currency"))
        }
        guard input.asOf <= Timestamp.string(from: context.date.addingTimeInterval(300)) else {
            throw LedgerError.invalid("\(field("asOf")) \(input.asOf) is in the future", field: field("asOf"))
        }
        if try PriceSnapshotRow.exists(db, assetId: input.assetId, source: input.source, asOf: input.asOf) {
            return nil
        }
        var row = PriceSnapshotRow(id: nil, assetId: input.assetId, price: price.decimalString, currency: currency.code, source: input.source, asOf: input.asOf,
                                   confidence: input.confidence.rawValue, recordedAt: context.now)
        try row.insert(db)
        return row
    }

    static func list(_ request: PriceListRequest, _ context: ReadContext) throws -> PriceListReply {
        let settings = try SettingsRow.current(context.db)
        let latestPrices = try PriceSnapshotRow.latestOfEveryAsset(context.db)
        var prices: [PriceSnapshotRecord] = []
        for asset in try AssetRow.bySymbol(context.db) {
            guard let latest = latestPrices[asset.id ?? 0] else { continue }
            prices.append(latest.record(symbol: asset.symbol, now: context.date, staleMinutes: asset.staleMinutes(settings)))
        }
        return PriceListReply(prices: prices)
    }

    static func history(_ request: PriceHistoryRequest, _ context: ReadContext) throws -> PriceListReply {
        let asset = try AssetRow.find(context.db, id: try InputRules.positiveId(request.assetId, field: .body("assetId")), field: .body("assetId"))
        let since = try request.since.map { try RateHandlers.moment($0, field: .body("since"), now: context.date) }
            ?? Timestamp.string(from: context.date.addingTimeInterval(-Double(keptHours) * 3_600))
        let limit = asset.staleMinutes(try SettingsRow.current(context.db))
        let rows = try PriceSnapshotRow.history(context.db, assetId: request.assetId, since: since)
        return PriceListReply(prices: rows.map { $0.record(symbol: asset.symbol, now: context.date, staleMinutes: limit) })
    }

    static func purge(_ request: PricePurgeRequest, _ context: inout WriteContext) throws -> PricePurgeReply {
        let db = context.db
        let now = try request.now.map { try InputRules.moment($0, field: .body("now"), date: .startOfDay) } ?? context.date
        let cutoff = Timestamp.string(from: now.addingTimeInterval(-Double(keptHours) * 3_600))
        // Before the cutoff, each asset's last snapshot of each UTC day (its close) stays.
        let removed = try PriceSnapshotRow.purge(db, before: cutoff)
        let kept = try PriceSnapshotRow.count(db)
        return PricePurgeReply(removed: removed, kept: kept)
    }

    static func wanted(_ request: PriceWantedRequest, _ db: Database) throws -> PriceWantedReply {
        let settings = try SettingsRow.current(db)
        let assets = try AssetRow.wantingPrices(db)
        let latest = try PriceSnapshotRow.latestOfEveryAsset(db)
        return PriceWantedReply(assets: assets.map { asset in
            PricedAsset(assetId: asset.id ?? 0, symbol: asset.symbol, assetType: asset.type, quoteCurrency: asset.quoteCurrency,
                        provider: PriceProvider(rawValue: asset.provider) ?? .manual, providerId: asset.providerId,
                        latestAsOf: latest[asset.id ?? 0]?.asOf, staleMinutes: asset.staleMinutes(settings))
        })
    }
}
