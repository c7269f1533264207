import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Records new transactions and transfers for one write: `tx.create`, `tx.transfer`, or a whole
/// `tx.import` batch of thousands.
///
/// Why a writer: what each new transaction needs (its wallet, that its categories exist, its
/// tags' ids, the day's rates and their stored JSON) is the same for most of a batch, so it is
/// read once; the wallet balances and the report totals are summed as transactions are recorded
/// and written once in `finish()`, which must run before the SQL transaction commits.
/// It lives for one SQL transaction and never outlives what it read.
final class TransactionWriter {
    let db: Database
    let rates = ConversionCache()
    private var wallets: [Int64: WalletRecord] = [:]
    private var knownCategories = Set<Int64>()
    private var tagIds: [String: Int64] = [:]
    private var balanceChanges: [Int64: Int64] = [:]
    /// Restored times as sent → as stored (`Recording`).
    private var timestamps: [String: String] = [:]
    private var totals = LedgerTotals()
    /// The `transactions` insert, kept for the whole write (`BoundStatement.cleared()`).
    private var transactionInsert: BoundStatement?
    /// Every id recorded (transfer legs one each), and what they touched, for an import's event.
    private(set) var ids: [Int64] = []
    private(set) var walletIds = Set<Int64>()
    private(set) var categoryIds = Set<Int64>()
    private(set) var months = Set<String>()

    init(db: Database) { self.db = db }

    /// Validates and records one transaction. `kept`: restoring an export, the amounts and rates
    /// it had instead of converting again.
    /// `trade`: the investment trade whose cash this is; `asTransfer` keeps a buy's or sale's
    /// cash out of income and spending (money between the user's own accounts).
    /// `liability`: the liability this pays (also kept out of spending: the debt falls by as much).
    func insert(_ request: TransactionCreateRequest, _ context: inout WriteContext, importKey: String? = nil, importId: String? = nil, kept: KeptAmounts? = nil,
                trade: (id: Int64, asTransfer: Bool)? = nil, liability: Int64? = nil) throws -> Int64 {
        let wallet = try activeWallet(request.walletId, field: .body("walletId"))
        let currency = try InputRules.currency(request.currency ?? wallet.currency, field: .body("currency"))
        let amount = try InputRules.positiveAmount(request.amount, currency: currency, field: .body("amount"))
        let date = try InputRules.date(request.date, field: .body("date"))
        if let categoryId = request.categoryId { try requireCategory(categoryId, field: .body("categoryId")) }
        let splits = try TransactionHandlers.validSplits(request.splits ?? [], total: amount, db: db) { try self.requireCategory($0, field: $1) }
        if request.categoryId != nil && !splits.isEmpty {
            throw LedgerError.invalid("give a category or splits, not both: each split part has its own category", field: .body("splits"))
        }
        let notes = try InputRules.optionalText(request.notes, field: .body("notes"))
        let attachment = try InputRules.optionalText(request.attachmentPath, field: .body("attachmentPath"), limit: 4_096)
        let tags = try tagIds(request.tags ?? [], field: .body("tags"), &context)
        let converted = try kept.map { try TransactionConversion.restored($0, amount: amount, wallet: wallet, db: db, cache: rates) }
            ?? TransactionConversion.make(db, amount: amount, wallet: wallet, overrideRate: request.rate, date: date, now: context.date, cache: rates)
        let effect = request.kind.sign * converted.walletMoney.minorUnits
        let recording = try Recording(kept, importId: importId, now: context.now, timestamps: &timestamps)
        let baseMinor = converted.baseMinorUnits.map { request.kind.sign * $0 }
        let transfer = trade?.asTransfer == true || liability != nil

        let keptId = try kept?.id.map { try InputRules.positiveId($0, field: .root("kept").member("id")) }
        let day = date.description
        let conversionJSON = rates.json(converted.conversion), baseConversionJSON = rates.json(converted.baseConversion)
        try refusingTaken(keptId, field: .root("kept").member("id")) {
            let insert = try transactionInsert?.cleared() ?? BoundStatement(db, cached: """
                INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, base_amount_minor, conversion, base_conversion, category_id, notes, date, attachment_path, import_key, import_id, created_at, updated_at, trade_id, trade_transfer, liability_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            transactionInsert = insert
            insert.bind(keptId, at: 1)
            insert.bind(request.kind.rawValue, at: 2)
            insert.bind(wallet.id, at: 3)
            insert.bind(amount.minorUnits, at: 4)
            insert.bind(currency.code, at: 5)
            insert.bind(effect, at: 6)
            insert.bind(baseMinor, at: 7)
            insert.bind(conversionJSON, at: 8)
            insert.bind(baseConversionJSON, at: 9)
            insert.bind(request.categoryId, at: 10)
            insert.bind(notes, at: 11)
            insert.bind(day, at: 12)
            insert.bind(attachment, at: 13)
            insert.bind(importKey, at: 14)
            insert.bind(recording.importId, at: 15)
            insert.bind(recording.createdAt, at: 16)
            insert.bind(recording.updatedAt, at: 17)
            insert.bind(trade?.id, at: 18)
            insert.bind(transfer, at: 19)
            insert.bind(liability, at: 20)
            try insert.execute()
        }
        let id = db.lastInsertedRowID
        try TransactionHandlers.writeTags(db, txId: id, tagIds: tags)
        try TransactionHandlers.writeSplits(db, txId: id, date: day, splits: splits)
        try recorded(id, LedgerTotals.Entry(
            date: day, walletId: wallet.id, categoryId: request.categoryId, kind: request.kind, transfer: transfer, currency: currency.code,
            amountMinor: amount.minorUnits, walletEffect: effect, baseMinor: baseMinor, splits: splits.map { ($0.0.minorUnits, $0.1.categoryId) },
            notes: notes))
        return id
    }

    /// Runs the insert of a transaction with a restored id (`id` nil: SQLite picks the next) and
    /// refuses the id when it is taken. The primary key finds that in the insert itself, which
    /// costs nothing more, where a look-up first was one more query per restored transaction.
    private func refusingTaken(_ id: Int64?, field: FieldPath, _ insert: () throws -> Void) throws {
        do {
            try insert()
        } catch let error as DatabaseError where id != nil && error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw LedgerError.conflict("transaction \(id ?? 0) already exists: a restore keeps the export's ids, so it goes into a new, empty ledger", field: field)
        }
    }

    /// The import and times a new transaction is recorded with: the write's, or, restoring an
    /// export (`kept`), the ones it had (an item's own import id, none when it had none).
    private struct Recording {
        let importId: String?
        let createdAt: String
        let updatedAt: String

        /// `timestamps`: kept times already read, as stored (a restored batch's transactions
        /// share a handful: every transaction of one import was recorded at one moment).
        init(_ kept: KeptAmounts?, importId: String?, now: String, timestamps: inout [String: String]) throws {
            self.importId = kept.map(\.importId) ?? importId
            func read(_ text: String?, _ member: String) throws -> String {
                guard let text else { return now }
                if let known = timestamps[text] { return known }
                let stored = try InputRules.timestamp(text, field: .root("kept").member(member))
                timestamps[text] = stored
                return stored
            }
            createdAt = try kept.map { try read($0.createdAt, "createdAt") } ?? now
            updatedAt = try kept.map { try read($0.updatedAt, "updatedAt") } ?? now
        }
    }

    /// Validates and records both legs of a transfer; returns [outgoing, incoming].
    func insertTransfer(_ request: TransferCreateRequest, _ context: inout WriteContext, importKey: String? = nil, importId: String? = nil, kept: KeptAmounts? = nil) throws -> [Int64] {
        guard request.fromWalletId != request.toWalletId else {
            throw LedgerError.invalid("a transfer needs two different wallets", field: .body("toWalletId"))
        }
        let source = try activeWallet(request.fromWalletId, field: .body("fromWalletId"))
        let destination = try activeWallet(request.toWalletId, field: .body("toWalletId"))
        let sourceCurrency = try InputRules.currency(source.currency, field: .body("fromWalletId"))
        let destinationCurrency = try InputRules.currency(destination.currency, field: .body("toWalletId"))
        let outgoing = try InputRules.positiveAmount(request.amount, currency: sourceCurrency, field: .body("amount"))
        let incoming: Money
        if let toAmount = request.toAmount {
            incoming = try InputRules.positiveAmount(toAmount, currency: destinationCurrency, field: .body("toAmount"))
            if sourceCurrency == destinationCurrency && incoming != outgoing {
                throw LedgerError.invalid("both wallets are in \(sourceCurrency.code): body.toAmount must equal body.amount (record a fee as its own expense)", field: .body("toAmount"))
            }
        } else {
            guard sourceCurrency == destinationCurrency else {
                throw LedgerError.invalid("the wallets are in \(sourceCurrency.code) and \(destinationCurrency.code): give body.toAmount, what arrives in \(destination.name)", field: .body("toAmount"))
            }
            incoming = outgoing
        }
        let date = try InputRules.date(request.date, field: .body("date"))
        let notes = try InputRules.optionalText(request.notes, field: .body("notes"))
        let tags = try tagIds(request.tags ?? [], field: .body("tags"), &context)
        let base = try rates.baseCurrency(db)

        // Both legs carry the same value, so they get the same base amount: the base-currency leg's
        // own amount when one is in the base currency (the transfer's real rate), else both
        // converted; when either cannot be converted, neither gets one (totals stay balanced).
        let legs = [(source, outgoing, TransactionKind.expense, destination), (destination, incoming, .income, source)]
        var conversions: [TransactionConversion]
        if let kept {
            // Restoring an export: each leg gets the base amount it had.
            conversions = [
                TransactionConversion(walletMoney: outgoing, conversion: nil,
                                      baseMinorUnits: try TransactionConversion.keptBase(kept.baseAmount, db: db, field: .root("kept").member("baseAmount"), cache: rates),
                                      baseConversion: kept.baseConversion),
                TransactionConversion(walletMoney: incoming, conversion: nil,
                                      baseMinorUnits: try TransactionConversion.keptBase(kept.incomingBaseAmount ?? kept.baseAmount, db: db, field: .root("kept").member("incomingBaseAmount"), cache: rates),
                                      baseConversion: kept.incomingBaseConversion),
            ]
        } else {
            conversions = try zip(legs, [FieldPath.body("amount"), request.toAmount == nil ? .body("amount") : .body("toAmount")]).map { leg, field in
                try TransactionConversion.make(db, amount: leg.1, wallet: leg.0, overrideRate: nil, date: date, now: context.date, cache: rates, amountField: field)
            }
            if let inBase = legs.firstIndex(where: { $0.1.currency.code == base }) {
                conversions = conversions.indices.map { index in
                    conversions[index].withBase(minorUnits: legs[inBase].1.minorUnits, snapshot: index == inBase ? nil : conversions[index].baseConversion)
                }
            } else if conversions.contains(where: { $0.baseMinorUnits == nil }) {
                conversions = conversions.map { $0.withBase(minorUnits: nil, snapshot: nil) }
            }
        }
        let recording = try Recording(kept, importId: importId, now: context.now, timestamps: &timestamps)
        let day = date.description
        var legIds: [Int64] = []
        for ((wallet, money, kind, counterparty), converted) in zip(legs, conversions) {
            let effect = kind.sign * money.minorUnits
            let baseMinor = converted.baseMinorUnits.map { kind.sign * $0 }
            let idField = kind == .expense ? FieldPath.root("kept").member("id") : .root("kept").member("incomingId")
            let keptId = try (kind == .expense ? kept?.id : kept?.incomingId).map { try InputRules.positiveId($0, field: idField) }
            let baseConversionJSON = rates.json(converted.baseConversion)
            try refusingTaken(keptId, field: idField) {
                let insert = try BoundStatement(db, cached: """
                    INSERT INTO transactions (id, kind, wallet_id, amount_minor, currency, wallet_amount_minor, base_amount_minor, base_conversion, notes, date, counterparty_wallet_id, import_key, import_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                insert.bind(keptId, at: 1)
                insert.bind(kind.rawValue, at: 2)
                insert.bind(wallet.id, at: 3)
                insert.bind(money.minorUnits, at: 4)
                insert.bind(money.currency.code, at: 5)
                insert.bind(effect, at: 6)
                insert.bind(baseMinor, at: 7)
                insert.bind(baseConversionJSON, at: 8)
                insert.bind(notes, at: 9)
                insert.bind(day, at: 10)
                insert.bind(counterparty.id, at: 11)
                insert.bind(kind == .expense ? importKey : nil, at: 12)
                insert.bind(recording.importId, at: 13)
                insert.bind(recording.createdAt, at: 14)
                insert.bind(recording.updatedAt, at: 15)
                try insert.execute()
            }
            let id = db.lastInsertedRowID
            legIds.append(id)
            try TransactionHandlers.writeTags(db, txId: id, tagIds: tags)
            try recorded(id, LedgerTotals.Entry(
                date: day, walletId: wallet.id, categoryId: nil, kind: kind, transfer: true, currency: money.currency.code,
                amountMinor: money.minorUnits, walletEffect: effect, baseMinor: baseMinor, splits: [], notes: notes))
        }
        try db.execute(cached: "UPDATE transactions SET counterparty_tx_id = ? WHERE id = ?", arguments: [legIds[1], legIds[0]])
        try db.execute(cached: "UPDATE transactions SET counterparty_tx_id = ? WHERE id = ?", arguments: [legIds[0], legIds[1]])
        return legIds
    }

    /// Writes the summed balance changes and report totals. Call once, before the commit.
    func finish() throws {
        for (walletId, delta) in balanceChanges.sorted(by: { $0.key < $1.key }) {
            try WalletRow.adjustBalance(db, walletId: walletId, by: delta)
        }
        balanceChanges = [:]
        try totals.flush(db)
    }

    // MARK: Remembered reads

    private func recorded(_ id: Int64, _ entry: LedgerTotals.Entry) throws {
        let (sum, overflow) = balanceChanges[entry.walletId, default: 0].addingReportingOverflow(entry.walletEffect)
        guard !overflow else {
            throw LedgerError.invalid("this would take the wallet's balance beyond what Ledgerly can store", field: .body("amount"))
        }
        balanceChanges[entry.walletId] = sum
        ids.append(id)
        walletIds.insert(entry.walletId)
        months.insert(String(entry.date.prefix(7)))
        if let category = entry.categoryId { categoryIds.insert(category) }
        categoryIds.formUnion(entry.splits.map(\.categoryId))
        try totals.add(entry)
    }

    private func activeWallet(_ id: Int64, field: FieldPath) throws -> WalletRecord {
        if let known = wallets[id] { return known }
        let wallet = try WalletRow.active(db, id: id, field: field).record
        wallets[id] = wallet
        return wallet
    }

    private func requireCategory(_ id: Int64, field: FieldPath) throws {
        guard !knownCategories.contains(id) else { return }
        try CategoryRow.requireExists(db, id: id, field: field)
        knownCategories.insert(id)
    }

    private func tagIds(_ names: [String], field: FieldPath, _ context: inout WriteContext) throws -> [Int64] {
        guard !names.isEmpty else { return [] }
        // Remembered by lowercased ASCII name only: that is how SQLite's NOCASE compares names.
        func key(_ name: String) -> String? {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            return trimmed.allSatisfy(\.isASCII) ? trimmed.lowercased() : nil
        }
        if names.count == 1, let name = key(names[0]), let known = tagIds[name] { return [known] }
        let ids = try TagHandlers.resolve(names, field: field, &context)
        if names.count == ids.count { for (name, id) in zip(names, ids) { if let name = key(name) { tagIds[name] = id } } }
        return ids
    }
}
