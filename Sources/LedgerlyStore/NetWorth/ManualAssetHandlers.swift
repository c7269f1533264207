import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `asset.create|list|get|update|revalue|archive`: manual assets and their dated valuations
/// (docs/networth.md). A value is never overwritten: a revaluation adds a row, so net worth at
/// any past day reads the valuation of that day.
enum ManualAssetHandlers {
    static func create(_ request: ManualAssetCreateRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        let db = context.db
        let name = try InputRules.name(request.name, field: .body("name"))
        try ensureNameFree(db, name: name, except: nil)
        let ledgerBase = try SettingsHandlers.baseCurrency(db)
        guard let code = request.currency ?? ledgerBase else {
            throw LedgerError.invalid("body.currency is required until the ledger has a base currency", field: .body("currency"))
        }
        let currency = try InputRules.currency(code, field: .body("currency"))
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
        let record = try row.record(db, withValuations: true)
        try context.record(.manualAssetCreated, id: String(record.id), data: record)
        return record
    }

    static func list(_ request: ManualAssetListRequest, _ db: Database) throws -> ManualAssetListReply {
        let rows = try ManualAssetRow.byName(db, includeArchived: request.includeArchived == true)
        return ManualAssetListReply(assets: try rows.map { try $0.record(db, withValuations: false) })
    }

    static func get(_ request: ManualAssetGetRequest, _ db: Database) throws -> ManualAssetRecord {
        try ManualAssetRow.find(db, id: try InputRules.positiveId(request.id, field: .body("id")), field: .body("id")).record(db, withValuations: true)
    }

    static func update(_ request: ManualAssetUpdateRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        let db = context.db
        var row = try ManualAssetRow.find(db, id: request.id, field: .body("id"))
        if let name = request.name {
            row.name = try InputRules.name(name, field: .body("name"))
            try ensureNameFree(db, name: row.name, except: row.id)
        }
        if let type = request.assetType { row.assetType = type.rawValue }
        if let volatile = request.volatile { row.volatile = volatile }
        if let core = request.includeInCore { row.includeInCore = core }
        if let tangible = request.includeInTangible { row.includeInTangible = tangible }
        if let notes = request.notes { row.notes = try InputRules.optionalText(notes, field: .body("notes")) }
        row.updatedAt = context.now
        try row.update(db)
        let record = try row.record(db, withValuations: true)
        try context.record(.manualAssetUpdated, id: String(record.id), data: record)
        return record
    }

    static func revalue(_ request: ManualAssetRevalueRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        let db = context.db
        var row = try ManualAssetRow.find(db, id: request.id, field: .body("id"))
        let value = try NetWorthRules.value(request.value, currency: try InputRules.currency(row.currency, field: .wholeBody), field: .body("value"))
        let day = try NetWorthRules.pastDay(request.date, today: Timestamp.today(at: context.date), field: .body("date"))
        try addValuation(db, assetId: request.id, day: day, value: value, notes: try InputRules.optionalText(request.notes, field: .body("notes")), now: context.now)
        row.updatedAt = context.now
        try row.update(db)
        let record = try row.record(db, withValuations: true)
        try context.record(.manualAssetUpdated, id: String(record.id), data: record)
        return record
    }

    static func archive(_ request: ManualAssetArchiveRequest, _ context: inout WriteContext) throws -> ManualAssetRecord {
        var row = try ManualAssetRow.find(context.db, id: request.id, field: .body("id"))
        if !row.archived {
            row.archived = true
            row.updatedAt = context.now
            try row.update(context.db)
            try context.record(.manualAssetUpdated, id: String(request.id), data: try row.record(context.db, withValuations: false))
        }
        return try row.record(context.db, withValuations: false)
    }

    private static func addValuation(_ db: Database, assetId: Int64, day: String, value: Int64, notes: String?, now: String) throws {
        var valuation = AssetValuationRow(id: nil, assetId: assetId, date: day, valueMinor: value, notes: notes, createdAt: now)
        try valuation.insert(db)
    }

    private static func ensureNameFree(_ db: Database, name: String, except id: Int64?) throws {
        if let taken = try ManualAssetRow.id(named: name, db), taken != id {
            throw LedgerError.conflict("a manual asset named '\(name)' already exists", field: .body("name"))
        }
    }
}
