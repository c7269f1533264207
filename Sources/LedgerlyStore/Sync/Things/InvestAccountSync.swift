import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Investment accounts: every field. Accounts are archived, never deleted. Two made apart with
/// one name are both kept, one renamed. A changed cost-basis method takes every sale of the
/// account again, as `invest.account.update` does.
enum InvestAccountSync: SyncedThing {
    static let entity = "invest_account"

    private struct Fields: Codable {
        var name: String
        var broker: String?
        var accountType: InvestAccountType
        var baseCurrency: String
        var costBasisMethod: CostBasisMethod
        var includeInNetWorth: Bool
        var archived: Bool
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: InvestAccountRow.databaseTableName, db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let account = try InvestAccountRow.fetchOne(db, key: id) else { return nil }
        let record = account.record
        return try SyncFields.object(Fields(
            name: record.name, broker: record.broker, accountType: record.accountType, baseCurrency: record.baseCurrency, costBasisMethod: record.costBasisMethod,
            includeInNetWorth: record.includeInNetWorth, archived: record.archived, createdAt: record.createdAt, updatedAt: record.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let base = try InputRules.currency(fields.baseCurrency, field: field)
        let was = try localId.map { try InvestAccountRow.find(db, id: $0, field: field) }
        if let was, was.baseCurrency != base.code {
            throw LedgerError.invalid("a synced investment account cannot change its base currency", field: field)
        }
        let name = try SyncNames.settle(InputRules.name(fields.name, field: field), of: (self, gid, localId), among: .investAccounts, identities: identities, &context)
        var row = try InvestAccountRow(
            id: localId ?? (try SyncNames.freeId(idHint, table: InvestAccountRow.databaseTableName, db)), name: name,
            broker: try InputRules.optionalText(fields.broker, field: field, limit: 200), accountType: fields.accountType.rawValue, baseCurrency: base.code,
            costBasisMethod: fields.costBasisMethod.rawValue, includeInNetWorth: fields.includeInNetWorth, archived: fields.archived,
            createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        if was != nil { try row.update(db) } else { try row.insert(db) }
        let id = row.id ?? 0
        if let was, was.costBasisMethod != row.costBasisMethod {
            let assets = try TradeRow.assetIds(db, accountId: id)
            for asset in assets {
                let before = try TradeSync.unapplied(db, assetId: asset)
                try TradeReplay.replay(db, assetId: asset, field: field, merging: true)
                try TradeSync.tellNewlyUnapplied(db, assetId: asset, before: before, cause: "investment account '\(row.name)' takes lots by \(row.costBasisMethod) now", identities: identities)
            }
        }
        try context.record(was == nil ? .investAccountCreated : .investAccountUpdated, id: String(id), data: row.record)
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "investment account \(localId) was deleted on another device, but accounts are archived, not deleted: it stays here"
    }
}
