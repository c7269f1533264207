import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `liability.create|list|get|update|revalue|pay|archive`: debts with a dated balance history
/// (docs/networth.md). Entries are never overwritten; a payment is also a wallet transaction,
/// linked to the liability and counted like a transfer.
enum LiabilityHandlers {
    static func create(_ request: LiabilityCreateRequest, _ context: inout WriteContext) throws -> LiabilityRecord {
        let db = context.db
        let name = try NetWorthItemHandlers.newName(request.name, of: LiabilityRow.self, db)
        let currency = try NetWorthItemHandlers.currency(request.currency, db)
        let balance = try NetWorthRules.value(request.balance, currency: currency, field: .body("balance"))
        let day = try NetWorthRules.pastDay(request.balanceOn, today: Timestamp.today(at: context.date), field: .body("balanceOn"))
        var row = LiabilityRow(
            id: nil, name: name, liabilityType: (request.liabilityType ?? .loan).rawValue, currency: currency.code,
            interestRate: try interestRate(request.interestRate), dueDate: try dueDate(request.dueDate),
            notes: try InputRules.optionalText(request.notes, field: .body("notes")), archived: false, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        try addEntry(db, liabilityId: row.id ?? 0, day: day, kind: .balance, amount: balance, walletId: nil, transactionId: nil, notes: nil, now: context.now)
        return try NetWorthItemHandlers.recorded(row, .liabilityCreated, &context)
    }

    static func list(_ request: LiabilityListRequest, _ db: Database) throws -> LiabilityListReply {
        LiabilityListReply(liabilities: try NetWorthItemHandlers.list(LiabilityRow.self, includeArchived: request.includeArchived, db))
    }

    static func get(_ request: LiabilityGetRequest, _ db: Database) throws -> LiabilityRecord {
        try NetWorthItemHandlers.get(LiabilityRow.self, id: request.id, db)
    }

    static func update(_ request: LiabilityUpdateRequest, _ context: inout WriteContext) throws -> LiabilityRecord {
        let db = context.db
        var row = try LiabilityRow.find(db, id: request.id, field: .body("id"))
        try NetWorthItemHandlers.rename(&row, to: request.name, db)
        if let type = request.liabilityType { row.liabilityType = type.rawValue }
        if let rate = request.interestRate { row.interestRate = rate.isEmpty ? nil : try interestRate(rate) }
        if let due = request.dueDate { row.dueDate = due.isEmpty ? nil : try dueDate(due) }
        if let notes = request.notes { row.notes = try InputRules.optionalText(notes, field: .body("notes")) }
        return try NetWorthItemHandlers.saved(&row, .liabilityUpdated, &context)
    }

    static func revalue(_ request: LiabilityRevalueRequest, _ context: inout WriteContext) throws -> LiabilityRecord {
        let db = context.db
        var row = try LiabilityRow.find(db, id: request.id, field: .body("id"))
        let balance = try NetWorthRules.value(request.balance, currency: try InputRules.currency(row.currency, field: .wholeBody), field: .body("balance"))
        let day = try NetWorthRules.pastDay(request.date, today: Timestamp.today(at: context.date), field: .body("date"))
        try addEntry(db, liabilityId: request.id, day: day, kind: .balance, amount: balance, walletId: nil, transactionId: nil,
                     notes: try InputRules.optionalText(request.notes, field: .body("notes")), now: context.now)
        // A balance set in the past may leave a later payment paying more than was owed.
        try requireNotOverdrawn(db, row, from: day, field: .body("balance"))
        return try NetWorthItemHandlers.saved(&row, .liabilityUpdated, &context)
    }

    static func pay(_ request: LiabilityPayRequest, _ context: inout WriteContext) throws -> LiabilityPaymentReply {
        let db = context.db
        var row = try LiabilityRow.find(db, id: request.id, field: .body("id"))
        let currency = try InputRules.currency(row.currency, field: .wholeBody)
        let amount = try InputRules.positiveAmount(request.amount, currency: currency, field: .body("amount"))
        let day = try NetWorthRules.pastDay(request.date, today: Timestamp.today(at: context.date), field: .body("date"))
        let notes = try InputRules.optionalText(request.notes, field: .body("notes")) ?? "Payment: \(row.name)"
        let wallet = try WalletRow.active(db, id: request.walletId, field: .body("walletId")).record
        // What leaves the wallet: the amount itself in the same currency; else what the wallet
        // paid, when given, or the amount converted at the day's rate like any transaction.
        let transaction: TransactionCreateRequest
        if wallet.currency == currency.code {
            guard request.walletAmount == nil else {
                throw LedgerError.invalid("body.walletAmount is only for a wallet in another currency than the liability's (\(currency.code))", field: .body("walletAmount"))
            }
            transaction = TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: request.amount, notes: notes, date: day)
        } else if let walletAmount = request.walletAmount {
            let walletCurrency = try InputRules.currency(wallet.currency, field: .body("walletId"))
            let paid = try InputRules.positiveAmount(walletAmount, currency: walletCurrency, field: .body("walletAmount"))
            transaction = TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: Money.format(minorUnits: paid.minorUnits, exponent: walletCurrency.exponent),
                                                   notes: notes, date: day)
        } else {
            transaction = TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: request.amount, currency: currency.code, notes: notes, date: day)
        }
        let writer = TransactionWriter(db: db)
        let transactionId = try writer.insert(transaction, &context, liability: request.id)
        try writer.finish()
        try addEntry(db, liabilityId: request.id, day: day, kind: .payment, amount: amount.minorUnits, walletId: wallet.id, transactionId: transactionId,
                     notes: try InputRules.optionalText(request.notes, field: .body("notes")), now: context.now)
        try requireNotOverdrawn(db, row, from: day, field: .body("amount"))
        row.updatedAt = context.now
        try row.update(db)
        let reply = LiabilityPaymentReply(liability: try row.record(db, withHistory: true), transaction: try TransactionHandlers.fetch(db, id: transactionId))
        try context.record(.txCreated, id: String(transactionId), data: reply.transaction)
        try context.record(.liabilityUpdated, id: String(request.id), data: reply.liability)
        return reply
    }

    static func archive(_ request: LiabilityArchiveRequest, _ context: inout WriteContext) throws -> LiabilityRecord {
        try NetWorthItemHandlers.archive(LiabilityRow.self, id: request.id, event: .liabilityUpdated, &context)
    }

    // MARK: Checks

    /// Every balance from `day` on stays at zero or more: a payment is never more than was owed
    /// on its day, and a balance set in the past never leaves a later payment paying too much.
    /// Entries before `day` are not looked at: an entry on `day` cannot change them, and one
    /// history merged by sync may already dip below zero there (payments made apart, D310).
    private static func requireNotOverdrawn(_ db: Database, _ row: LiabilityRow, from day: String, field: FieldPath) throws {
        let history = try LiabilityHistory.read(db, liabilityId: row.id ?? 0)
        guard let entry = history.entries.first(where: { $0.date >= day && $0.balanceAfter < 0 }) else { return }
        let owed = entry.amount + entry.balanceAfter
        throw LedgerError.conflict(
            "\(row.name) would owe less than nothing on \(entry.date): a payment of \(InputRules.format(entry.amount, row.currency)) \(row.currency) against a balance of \(InputRules.format(owed, row.currency)) \(row.currency)", field: field)
    }

    /// A yearly interest rate in percent: a decimal from 0 to 1000 with at most 6 decimals, kept
    /// exactly as given.
    static func interestRate(_ text: String?) throws -> String? {
        guard let text else { return nil }
        let field = FieldPath.body("interestRate")
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              parts.count == 1 || (1...6).contains(parts[1].count), let whole = Int(parts[0]), whole <= 1_000,
              whole < 1_000 || parts.count == 1 || parts[1].allSatisfy({ $0 == "0" }) else {
            throw LedgerError.invalid("\(field) must be a yearly percentage from 0 to 1000 with at most 6 decimals (\"3.25\"), got \(InputEcho.quoted(text))", field: field)
        }
        return text
    }

    static func dueDate(_ text: String?) throws -> String? {
        try text.map { try InputRules.date($0, field: .body("dueDate")).description }
    }

    private static func addEntry(_ db: Database, liabilityId: Int64, day: String, kind: LiabilityEntryKind, amount: Int64, walletId: Int64?, transactionId: Int64?,
                                 notes: String?, now: String) throws {
        var entry = LiabilityEntryRow(id: nil, liabilityId: liabilityId, date: day, kind: kind.rawValue, amountMinor: amount, walletId: walletId, transactionId: transactionId,
                                      notes: notes, createdAt: now)
        try entry.insert(db)
    }
}
