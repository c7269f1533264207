import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `wallet.create`, `wallet.list`, `wallet.get`, `wallet.update`, `wallet.archive`.
enum WalletHandlers {
    static func record(_ row: Row) -> WalletRecord {
        let currency: String = row["currency"]
        return WalletRecord(
            id: row["id"], name: row["name"], icon: row["icon"], currency: currency,
            type: WalletType(rawValue: row["type"]) ?? .custom,
            startingBalance: InputRules.format(row["starting_balance_minor"], currency),
            balance: InputRules.format(row["balance_minor"], currency),
            institution: row["institution"], sortOrder: row["sort_order"],
            includeInNetWorth: row["include_in_net_worth"], archived: row["archived"],
            createdAt: row["created_at"], updatedAt: row["updated_at"])
    }

    static func fetch(_ db: Database, id: Int64, field: FieldPath = .body("id")) throws -> WalletRecord {
        guard let row = try db.cachedRow(sql: "SELECT * FROM wallets WHERE id = ?", arguments: [id]) else {
            throw LedgerError.notFound("there is no wallet \(id)", field: field)
        }
        return record(row)
    }

    /// A wallet that may receive new transactions: it exists and is not archived.
    static func active(_ db: Database, id: Int64, field: FieldPath) throws -> WalletRecord {
        let wallet = try fetch(db, id: id, field: field)
        guard !wallet.archived else {
            throw LedgerError.invalid("wallet '\(wallet.name)' is archived; un-archive it to add transactions", field: field)
        }
        return wallet
    }

    static func create(_ request: WalletCreateRequest, _ context: inout WriteContext) throws -> WalletRecord {
        let name = try InputRules.name(request.name, field: .body("name"))
        let currency = try InputRules.currency(request.currency, field: .body("currency"))
        let starting = try InputRules.amount(request.startingBalance ?? "0", currency: currency, field: .body("startingBalance"))
        try ensureNameFree(context.db, name: name, except: nil)
        try context.db.execute(cached: """
                INSERT INTO wallets (name, icon, currency, type, starting_balance_minor, balance_minor, institution, sort_order, include_in_net_worth, archived, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
                """,
            arguments: [name, try InputRules.optionalText(request.icon, field: .body("icon"), limit: 32), currency.code, (request.type ?? .bank).rawValue,
                        starting.minorUnits, starting.minorUnits, try InputRules.optionalText(request.institution, field: .body("institution"), limit: 100),
                        try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) ?? 0, request.includeInNetWorth ?? true, context.now, context.now])
        let wallet = try fetch(context.db, id: context.db.lastInsertedRowID)
        try context.record(.walletCreated, id: String(wallet.id), data: wallet)
        return wallet
    }

    static func list(_ request: WalletListRequest, _ db: Database) throws -> WalletListReply {
        let archivedFilter = request.includeArchived == true ? "" : "WHERE archived = 0"
        let rows = try db.cachedRows(sql: "SELECT * FROM wallets \(archivedFilter) ORDER BY sort_order, name")
        return WalletListReply(wallets: rows.map(record))
    }

    static func get(_ request: WalletGetRequest, _ db: Database) throws -> WalletRecord {
        try fetch(db, id: request.id)
    }

    static func update(_ request: WalletUpdateRequest, _ context: inout WriteContext) throws -> WalletRecord {
        let db = context.db
        let wallet = try fetch(db, id: request.id)
        if let raw = request.name {
            let name = try InputRules.name(raw, field: .body("name"))
            try ensureNameFree(db, name: name, except: wallet.id)
            try db.execute(cached: "UPDATE wallets SET name = ? WHERE id = ?", arguments: [name, wallet.id])
        }
        if let type = request.type {
            try db.execute(cached: "UPDATE wallets SET type = ? WHERE id = ?", arguments: [type.rawValue, wallet.id])
        }
        if let icon = request.icon {
            try db.execute(cached: "UPDATE wallets SET icon = ? WHERE id = ?", arguments: [try InputRules.optionalText(icon, field: .body("icon"), limit: 32), wallet.id])
        }
        if let institution = request.institution {
            try db.execute(cached: "UPDATE wallets SET institution = ? WHERE id = ?", arguments: [try InputRules.optionalText(institution, field: .body("institution"), limit: 100), wallet.id])
        }
        if let order = try InputRules.sortOrder(request.sortOrder, field: .body("sortOrder")) {
            try db.execute(cached: "UPDATE wallets SET sort_order = ? WHERE id = ?", arguments: [order, wallet.id])
        }
        if let include = request.includeInNetWorth {
            try db.execute(cached: "UPDATE wallets SET include_in_net_worth = ? WHERE id = ?", arguments: [include, wallet.id])
        }
        if let text = request.startingBalance {
            let currency = try InputRules.currency(wallet.currency, field: .body("startingBalance"))
            let starting = try InputRules.amount(text, currency: currency, field: .body("startingBalance"))
            // The balance moves by the change in the starting balance; history is untouched.
            try db.execute(cached: "UPDATE wallets SET balance_minor = balance_minor - starting_balance_minor + ?, starting_balance_minor = ? WHERE id = ?",
                arguments: [starting.minorUnits, starting.minorUnits, wallet.id])
        }
        try db.execute(cached: "UPDATE wallets SET updated_at = ? WHERE id = ?", arguments: [context.now, wallet.id])
        let updated = try fetch(db, id: wallet.id)
        try context.record(.walletUpdated, id: String(updated.id), data: updated)
        return updated
    }

    static func archive(_ request: WalletArchiveRequest, _ context: inout WriteContext) throws -> WalletRecord {
        _ = try fetch(context.db, id: request.id)
        try context.db.execute(cached: "UPDATE wallets SET archived = ?, updated_at = ? WHERE id = ?", arguments: [request.archived ?? true, context.now, request.id])
        let updated = try fetch(context.db, id: request.id)
        try context.record(.walletArchived, id: String(updated.id), data: updated)
        return updated
    }

    /// Adds `delta` minor units to a wallet's maintained balance (same SQL transaction as the
    /// change), refusing a change that would take the balance beyond what can be stored.
    static func adjustBalance(_ db: Database, walletId: Int64, by delta: Int64) throws {
        let current = try db.cachedValue(Int64.self, sql: "SELECT balance_minor FROM wallets WHERE id = ?", arguments: [walletId]) ?? 0
        let (balance, overflow) = current.addingReportingOverflow(delta)
        guard !overflow, balance.magnitude < UInt64(Int64.max / 2) else {
            throw LedgerError.invalid("this would take the wallet's balance beyond what Ledgerly can store", field: .body("amount"))
        }
        try db.execute(cached: "UPDATE wallets SET balance_minor = ? WHERE id = ?", arguments: [balance, walletId])
    }

    private static func ensureNameFree(_ db: Database, name: String, except id: Int64?) throws {
        if let existing = try db.cachedValue(Int64.self, sql: "SELECT id FROM wallets WHERE name = ? COLLATE NOCASE", arguments: [name]), existing != id {
            throw LedgerError.conflict("a wallet named '\(name)' already exists (id \(existing))", field: .body("name"))
        }
    }
}
