import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.account.create|list|update|archive`.
enum InvestAccountHandlers {
    static func create(_ request: InvestAccountCreateRequest, _ context: inout WriteContext) throws -> InvestAccountRecord {
        let db = context.db
        let name = try InputRules.name(request.name, field: .body("name"))
        try ensureNameFree(db, name: name, except: nil)
        let ledgerBase = try SettingsHandlers.baseCurrency(db)
        guard let code = request.baseCurrency ?? ledgerBase else {
            throw LedgerError.invalid("body.baseCurrency is required until the ledger has a base currency", field: .body("baseCurrency"))
        }
        let base = try InputRules.currency(code, field: .body("baseCurrency"))
        var row = InvestAccountRow(
            id: nil, name: name, broker: try InputRules.optionalText(request.broker, field: .body("broker"), limit: 200),
            accountType: (request.accountType ?? .brokerage).rawValue, baseCurrency: base.code, costBasisMethod: (request.costBasisMethod ?? .fifo).rawValue,
            includeInNetWorth: request.includeInNetWorth ?? true, archived: false, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        try context.record(.investAccountCreated, id: String(row.id ?? 0), data: row.record)
        return row.record
    }

    static func list(_ request: InvestAccountListRequest, _ db: Database) throws -> InvestAccountListReply {
        let rows = try InvestAccountRow.byName(db, includeArchived: request.includeArchived == true)
        return InvestAccountListReply(accounts: rows.map(\.record))
    }

    static func update(_ request: InvestAccountUpdateRequest, _ context: inout WriteContext) throws -> InvestAccountRecord {
        let db = context.db
        var row = try InvestAccountRow.find(db, id: request.id, field: .body("id"))
        if let name = request.name {
            row.name = try InputRules.name(name, field: .body("name"))
            try ensureNameFree(db, name: row.name, except: row.id)
        }
        if let broker = request.broker { row.broker = broker.isEmpty ? nil : try InputRules.optionalText(broker, field: .body("broker"), limit: 200) }
        if let type = request.accountType { row.accountType = type.rawValue }
        if let include = request.includeInNetWorth { row.includeInNetWorth = include }
        let methodChanged = request.costBasisMethod.map { $0.rawValue != row.costBasisMethod } ?? false
        if let method = request.costBasisMethod { row.costBasisMethod = method.rawValue }
        row.updatedAt = context.now
        try row.update(db)
        if methodChanged {
            // Every sale of the account is taken again by the new method, in this write.
            let assets = try TradeRow.assetIds(db, accountId: request.id)
            for asset in assets { try TradeReplay.replay(db, assetId: asset, field: .body("costBasisMethod")) }
        }
        try context.record(.investAccountUpdated, id: String(request.id), data: row.record)
        return row.record
    }

    static func archive(_ request: InvestAccountArchiveRequest, _ context: inout WriteContext) throws -> InvestAccountRecord {
        var row = try InvestAccountRow.find(context.db, id: request.id, field: .body("id"))
        if !row.archived {
            row.archived = true
            row.updatedAt = context.now
            try row.update(context.db)
            try context.record(.investAccountUpdated, id: String(request.id), data: row.record)
        }
        return row.record
    }

    private static func ensureNameFree(_ db: Database, name: String, except id: Int64?) throws {
        if let taken = try InvestAccountRow.id(named: name, db), taken != id {
            throw LedgerError.conflict("an investment account named '\(name)' already exists", field: .body("name"))
        }
    }
}
