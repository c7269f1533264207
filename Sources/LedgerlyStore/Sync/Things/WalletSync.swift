import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Wallets: every field but the balance, which each device keeps from its own transactions.
/// Wallets are archived, never deleted.
enum WalletSync: SyncedThing {
    static let entity = "wallet"

    private struct Fields: Codable {
        var name: String
        var icon: String?
        var currency: String
        var type: String
        var startingBalance: String
        var institution: String?
        var sortOrder: Int
        var includeInNetWorth: Bool
        var archived: Bool
        var createdAt: String
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "wallets", db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let wallet = try WalletRow.row(db, id: id) else { return nil }
        return try SyncFields.object(Fields(
            name: wallet.name, icon: wallet.icon, currency: wallet.currency, type: wallet.type, startingBalance: wallet.record.startingBalance,
            institution: wallet.institution, sortOrder: wallet.sortOrder, includeInNetWorth: wallet.includeInNetWorth, archived: wallet.archived,
            createdAt: wallet.createdAt, updatedAt: wallet.updatedAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let field = FieldPath.body("messages")
        let currency = try InputRules.currency(fields.currency, field: field)
        let starting = try InputRules.amount(fields.startingBalance, currency: currency, field: field)
        let name = try SyncNames.settle(InputRules.name(fields.name, field: field), of: (self, gid, localId), among: .wallets, identities: identities, &context)
        if var wallet = try localId.map({ try WalletRow.find(db, id: $0, field: field) }) {
            guard wallet.currency == currency.code else {
                throw LedgerError.invalid("a synced wallet cannot change currency (\(wallet.currency) here, \(currency.code) in the message)", field: field)
            }
            let wasArchived = wallet.archived
            wallet.name = name
            wallet.icon = fields.icon
            wallet.type = fields.type
            wallet.balanceMinor += starting.minorUnits - wallet.startingBalanceMinor
            wallet.startingBalanceMinor = starting.minorUnits
            wallet.institution = fields.institution
            wallet.sortOrder = fields.sortOrder
            wallet.includeInNetWorth = fields.includeInNetWorth
            wallet.archived = fields.archived
            wallet.createdAt = fields.createdAt
            wallet.updatedAt = fields.updatedAt
            try wallet.update(db)
            try context.record(wallet.archived != wasArchived ? .walletArchived : .walletUpdated, id: String(wallet.id ?? 0), data: wallet.record)
            return wallet.id ?? 0
        }
        var wallet = WalletRow(
            id: try SyncNames.freeId(idHint, table: "wallets", db), name: name, icon: fields.icon, currency: currency.code, type: fields.type,
            startingBalanceMinor: starting.minorUnits, balanceMinor: starting.minorUnits, institution: fields.institution, sortOrder: fields.sortOrder,
            includeInNetWorth: fields.includeInNetWorth, archived: fields.archived, createdAt: fields.createdAt, updatedAt: fields.updatedAt)
        try wallet.insert(db)
        try context.record(.walletCreated, id: String(wallet.id ?? 0), data: wallet.record)
        return wallet.id ?? 0
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "wallet \(localId) was deleted on another device, but wallets are archived, not deleted: it stays here"
    }
}
