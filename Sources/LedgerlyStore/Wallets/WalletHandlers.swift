import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `wallet.create`, `wallet.list`, `wallet.get`, `wallet.update`, `wallet.archive`: the rules;
/// `WalletRow` reads and writes the table.
enum WalletHandlers {
    static func create(_ request: WalletCreateRequest, _ context: inout WriteContext) throws -> WalletRecord {
        let name = try InputRules.name(request.name, field: .body("name"))
        let currency = try InputRules.currency(request.currency, field: .body("currency"))
        let starting = try InputRules.amount(request.startingBalance ?? "0", currency: currency, field: .body("startingBalance"))
        try WalletRow.ensureNameFree(context.db, name: name, except: nil)
        var wallet = WalletRow(
            name: name, icon: try InputRules.optionalText(request.icon, field: .body("icon"), limit: 32), currency: currency.code,
            type: (request.type ?? .bank).rawValue, startingBalanceMinor: starting.minorUnits, balanceMinor: starting.minorUnits,
            institution: try InputRules.optionalText(request.institution, field: .body("institution"), limit: 100),
            sortOrder: try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) ?? 0,
            includeInNetWorth: request.includeInNetWorth ?? true, archived: false, createdAt: context.now, updatedAt: context.now)
        try wallet.insert(context.db)
        let record = wallet.record
        try context.record(.walletCreated, id: String(record.id), data: record)
        return record
    }

    static func list(_ request: WalletListRequest, _ db: Database) throws -> WalletListReply {
        var query = WalletRow.order(WalletRow.Columns.sortOrder, WalletRow.Columns.name)
        if request.includeArchived != true { query = query.filter(WalletRow.Columns.archived == false) }
        return WalletListReply(wallets: try query.fetchAll(db).map(\.record))
    }

    static func get(_ request: WalletGetRequest, _ db: Database) throws -> WalletRecord {
        try WalletRow.find(db, id: try InputRules.positiveId(request.id, field: .body("id"))).record
    }

    static func update(_ request: WalletUpdateRequest, _ context: inout WriteContext) throws -> WalletRecord {
        var wallet = try WalletRow.find(context.db, id: request.id)
        if let raw = request.name {
            let name = try InputRules.name(raw, field: .body("name"))
            try WalletRow.ensureNameFree(context.db, name: name, except: wallet.id)
            wallet.name = name
        }
        if let type = request.type { wallet.type = type.rawValue }
        if let icon = request.icon { wallet.icon = try InputRules.optionalText(icon, field: .body("icon"), limit: 32) }
        if let institution = request.institution { wallet.institution = try InputRules.optionalText(institution, field: .body("institution"), limit: 100) }
        if let order = try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) { wallet.sortOrder = order }
        if let include = request.includeInNetWorth { wallet.includeInNetWorth = include }
        if let text = request.startingBalance {
            let currency = try InputRules.currency(wallet.currency, field: .body("startingBalance"))
            let starting = try InputRules.amount(text, currency: currency, field: .body("startingBalance"))
            // The balance moves by the change in the starting balance; history is untouched.
            wallet.balanceMinor += starting.minorUnits - wallet.startingBalanceMinor
            wallet.startingBalanceMinor = starting.minorUnits
        }
        wallet.updatedAt = context.now
        try wallet.update(context.db)
        let record = wallet.record
        try context.record(.walletUpdated, id: String(record.id), data: record)
        return record
    }

    static func archive(_ request: WalletArchiveRequest, _ context: inout WriteContext) throws -> WalletRecord {
        var wallet = try WalletRow.find(context.db, id: request.id)
        wallet.archived = request.archived ?? true
        wallet.updatedAt = context.now
        try wallet.update(context.db)
        let record = wallet.record
        try context.record(.walletArchived, id: String(record.id), data: record)
        return record
    }
}
