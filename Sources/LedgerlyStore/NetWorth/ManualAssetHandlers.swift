import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `asset.create|list|get|update|revalue|archive`: manual assets and their dated valuations
/// (docs/networth.md). A value is never overwritten: a revaluation adds a row, so net worth at
/// any past day reads the valuation of that day.
enum ManualAssetHandlers {
    static func create(_ request: ManualAssetCreateRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        let db = context.db
        let name = try NetWorthItemHandlers.newName(request.name, of: ManualAssetRow.self, db)
        let currency = try NetWorthItemHandlers.currency(request.currency, db)
        let value = try NetWorthRules.value(request.value, currency: currency, field: .body("value"))
        let day = try NetWorthRules.pastDay(request.valuedOn, today: Timestamp.today(at: context.date), field: .body("valuedOn"))
        let type = request.assetType ?? .tangible
        let volatile = request.volatile ?? false
        var row = ManualAssetRow(
            id: nil, name: name, assetType: type.rawValue, currency: currency.code, volatile: volatile, includeInCore: request.includeInCore ?? !volatile,
            includeInTangible: request.includeInTangible ?? (type == .tangible), notes: try InputRules.optionalText(request.notes, field: .body("notes")),
            archived: false, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        try addValuation(db, assetId: row.id ?? 0, day: day, value: value, notes: nil, now: context.now)
        return try NetWorthItemHandlers.recorded(row, .manualAssetCreated, &context)
    }

    static func list(_ request: ManualAssetListRequest, _ db: Database) throws -> ManualAssetListReply {
        ManualAssetListReply(assets: try NetWorthItemHandlers.list(ManualAssetRow.self, includeArchived: request.includeArchived, db))
    }

    static func get(_ request: ManualAssetGetRequest, _ db: Database) throws -> ManualAssetRecord {
        try NetWorthItemHandlers.get(ManualAssetRow.self, id: request.id, db)
    }

    static func update(_ request: ManualAssetUpdateRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        let db = context.db
        var row = try ManualAssetRow.find(db, id: request.id, field: .body("id"))
        try NetWorthItemHandlers.rename(&row, to: request.name, db)
        if let type = request.assetType { row.assetType = type.rawValue }
        if let volatile = request.volatile { row.volatile = volatile }
        if let core = request.includeInCore { row.includeInCore = core }
        if let tangible = request.includeInTangible { row.includeInTangible = tangible }
        if let notes = request.notes { row.notes = try InputRules.optionalText(notes, field: .body("notes")) }
        return try NetWorthItemHandlers.saved(&row, .manualAssetUpdated, &context)
    }

    static func revalue(_ request: ManualAssetRevalueRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        let db = context.db
        var row = try ManualAssetRow.find(db, id: request.id, field: .body("id"))
        let value = try NetWorthRules.value(request.value, currency: try InputRules.currency(row.currency, field: .wholeBody), field: .body("value"))
        let day = try NetWorthRules.pastDay(request.date, today: Timestamp.today(at: context.date), field: .body("date"))
        try addValuation(db, assetId: request.id, day: day, value: value, notes: try InputRules.optionalText(request.notes, field: .body("notes")), now: context.now)
        return try NetWorthItemHandlers.saved(&row, .manualAssetUpdated, &context)
    }

    static func archive(_ request: ManualAssetArchiveRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        try NetWorthItemHandlers.archive(ManualAssetRow.self, id: request.id, event: .manualAssetUpdated, &context)
    }

    private static func addValuation(_ db: Database, assetId: Int64, day: String, value: Int64, notes: String?, now: String) throws {
        var valuation = AssetValuationRow(id: nil, assetId: assetId, date: day, valueMinor: value, notes: notes, createdAt: now)
        try valuation.insert(db)
    }
}
