import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `tx.create`, `tx.get`, `tx.list`, `tx.update`, `tx.delete`, `tx.transfer`.
///
/// Amounts are stored positive in minor units; `wallet_amount_minor` is the signed effect on the
/// wallet, which the wallet's maintained `balance_minor` sums. Both change in the same SQL
/// transaction, so a balance can never disagree with its transactions.
enum TransactionHandlers {
    static let maximumSplitParts = 100

    // MARK: Reads

    static func fetch(_ db: Database, id: Int64, field: String = "body.id") throws -> TransactionRecord {
        guard let row = try db.cachedRow(sql: "SELECT t.*, w.currency AS wallet_currency FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE t.id = ?", arguments: [id]) else {
            throw ErrorBody.notFound("there is no transaction \(id)", field: field)
        }
        return try records(db, rows: [row])[0]
    }

    static func get(_ request: TransactionGetRequest, _ db: Database) throws -> TransactionRecord {
        try fetch(db, id: request.id)
    }

    static func list(_ request: TransactionListRequest, _ db: Database) throws -> TransactionListReply {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        var prefix = ""
        if let walletId = request.walletId {
            conditions.append("t.wallet_id = ?")
            arguments.append(walletId)
        }
        if let categoryId = request.categoryId {
            try CategoryHandlers.requireExists(db, id: categoryId, field: "body.categoryId")
            prefix = "WITH RECURSIVE subtree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c JOIN subtree ON c.parent_id = subtree.id) "
            arguments.insert(categoryId, at: 0)
            conditions.append("(t.category_id IN subtree OR EXISTS (SELECT 1 FROM splits s WHERE s.tx_id = t.id AND s.category_id IN subtree))")
        }
        if let tag = request.tag {
            conditions.append("EXISTS (SELECT 1 FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id = t.id AND g.name = ?)")
            arguments.append(tag)
        }
        if let from = request.from {
            conditions.append("t.date >= ?")
            arguments.append(try InputRules.date(from, field: "body.from").description)
        }
        if let to = request.to {
            conditions.append("t.date <= ?")
            arguments.append(try InputRules.date(to, field: "body.to").description)
        }
        if let text = request.text, !text.isEmpty {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            conditions.append("t.notes LIKE ? ESCAPE '\\'")
            arguments.append("%\(escaped)%")
        }
        let limit = request.limit ?? 100
        guard (1...10_000).contains(limit) else { throw ErrorBody.validation("body.limit must be 1 to 10000, got \(limit)", field: "body.limit") }
        let offset = request.offset ?? 0
        guard offset >= 0 else { throw ErrorBody.validation("body.offset must not be negative", field: "body.offset") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total = try db.cachedValue(Int.self, sql: "\(prefix)SELECT count(*) FROM transactions t \(filter)", arguments: StatementArguments(arguments)) ?? 0
        let rows = try Row.fetchAll(
            db, sql: "\(prefix)SELECT t.*, w.currency AS wallet_currency FROM transactions t JOIN wallets w ON w.id = t.wallet_id \(filter) ORDER BY t.date DESC, t.id DESC LIMIT ? OFFSET ?",
            arguments: StatementArguments(arguments + [limit, offset]))
        return TransactionListReply(transactions: try records(db, rows: rows), total: total)
    }

    // MARK: Writes

    static func create(_ request: TransactionCreateRequest, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let wallet = try WalletHandlers.active(db, id: request.walletId, field: "body.walletId")
        let currency = try InputRules.currency(request.currency ?? wallet.currency, field: "body.currency")
        let amount = try InputRules.positiveAmount(request.amount, currency: currency, field: "body.amount")
        let date = try InputRules.date(request.date, field: "body.date")
        if let categoryId = request.categoryId { try CategoryHandlers.requireExists(db, id: categoryId, field: "body.categoryId") }
        let splits = try validSplits(request.splits ?? [], total: amount, db: db)
        if request.categoryId != nil && !splits.isEmpty {
            throw ErrorBody.validation("give a category or splits, not both: each split part has its own category", field: "body.splits")
        }
        let notes = try InputRules.optionalText(request.notes, field: "body.notes")
        let attachment = try InputRules.optionalText(request.attachmentPath, field: "body.attachmentPath", limit: 4_096)
        let tagIds = try TagHandlers.resolve(request.tags ?? [], field: "body.tags", &context)
        let converted = try TransactionConversion.make(db, amount: amount, wallet: wallet, overrideRate: request.rate, date: date, now: context.date)
        let effect = request.kind.sign * converted.walletMoney.minorUnits

        try db.execute(cached: """
                INSERT INTO transactions (kind, wallet_id, amount_minor, currency, wallet_amount_minor, base_amount_minor, conversion, base_conversion, category_id, notes, date, attachment_path, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [request.kind.rawValue, wallet.id, amount.minorUnits, currency.code, effect, converted.baseMinorUnits.map { request.kind.sign * $0 },
                        try TransactionConversion.json(converted.conversion), try TransactionConversion.json(converted.baseConversion),
                        request.categoryId, notes, date.description, attachment, context.now, context.now])
        let id = db.lastInsertedRowID
        try writeTags(db, txId: id, tagIds: tagIds)
        try writeSplits(db, txId: id, splits: splits)
        try WalletHandlers.adjustBalance(db, walletId: wallet.id, by: effect)
        let record = try fetch(db, id: id)
        try context.record(.txCreated, id: String(id), data: record)
        return record
    }

    static func update(_ request: TransactionUpdateRequest, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let old = try fetch(db, id: request.id)
        if let link = old.transfer {
            let forbidden = [("kind", request.kind != nil), ("walletId", request.walletId != nil), ("amount", request.amount != nil),
                             ("categoryId", request.categoryId != nil), ("splits", request.splits != nil)]
            if let field = forbidden.first(where: \.1)?.0 {
                throw ErrorBody.validation("transaction \(old.id) is a transfer leg: only notes, date, tags and attachment can change; delete the transfer and record it again to change body.\(field)", field: "body.\(field)")
            }
            // Both legs describe one transfer: they keep the same date, notes, tags and attachment.
            let updated = try updateDescription(request, of: old, &context)
            _ = try updateDescription(request, of: try fetch(db, id: link.counterpartyTransactionId), &context)
            return updated
        }
        let oldWallet = try WalletHandlers.fetch(db, id: old.walletId)
        let wallet = request.walletId == nil || request.walletId == old.walletId
            ? oldWallet
            : try WalletHandlers.active(db, id: request.walletId!, field: "body.walletId")
        // The kept rates convert into the old wallet's currency; a move keeps them valid only
        // within that currency.
        guard wallet.currency == oldWallet.currency else {
            throw ErrorBody.validation("wallet '\(wallet.name)' is in \(wallet.currency), not \(oldWallet.currency): delete the transaction and record it again in that wallet", field: "body.walletId")
        }
        let currency = try InputRules.currency(old.currency, field: "body.currency")
        let kind = request.kind ?? old.kind
        let amount = try InputRules.positiveAmount(request.amount ?? old.amount, currency: currency, field: "body.amount")
        if let categoryId = request.categoryId { try CategoryHandlers.requireExists(db, id: categoryId, field: "body.categoryId") }
        let splits: [(Money, SplitPart)]
        do {
            splits = try validSplits(request.splits ?? old.splits, total: amount, db: db)
        } catch let error as ErrorBody where request.splits == nil {
            throw ErrorBody.validation("\(error.message); send new splits together with the new amount", field: "body.amount")
        }
        // A transaction has a category or splits: new splits clear the category, and a new
        // category needs the splits cleared in the same request.
        if request.categoryId != nil && !splits.isEmpty {
            throw ErrorBody.validation("transaction \(old.id) is split: clear its splits (body.splits = []) to give it one category", field: "body.categoryId")
        }
        let categoryId = splits.isEmpty ? (request.categoryId ?? old.categoryId) : nil
        let oldEffect = try db.cachedValue(Int64.self, sql: "SELECT wallet_amount_minor FROM transactions WHERE id = ?", arguments: [old.id]) ?? 0
        let converted = try TransactionConversion.reapply(
            amount: amount, walletCurrency: try InputRules.currency(wallet.currency, field: "body.walletId"),
            conversion: old.conversion, baseConversion: old.baseConversion, base: old.baseCurrency)
        let effect = kind.sign * converted.walletMoney.minorUnits

        try db.execute(
            cached: "UPDATE transactions SET kind = ?, wallet_id = ?, amount_minor = ?, wallet_amount_minor = ?, base_amount_minor = ?, category_id = ? WHERE id = ?",
            arguments: [kind.rawValue, wallet.id, amount.minorUnits, effect, converted.baseMinorUnits.map { kind.sign * $0 }, categoryId, old.id])
        if request.splits != nil {
            try db.execute(cached: "DELETE FROM splits WHERE tx_id = ?", arguments: [old.id])
            try writeSplits(db, txId: old.id, splits: splits)
        }
        try WalletHandlers.adjustBalance(db, walletId: old.walletId, by: -oldEffect)
        try WalletHandlers.adjustBalance(db, walletId: wallet.id, by: effect)
        return try updateDescription(request, of: old, &context)
    }

    /// Applies the fields every transaction may change (notes, date, tags, attachment), stamps
    /// the update time and logs `tx.updated` with the transaction as it now is.
    private static func updateDescription(_ request: TransactionUpdateRequest, of old: TransactionRecord, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let date = try InputRules.date(request.date ?? old.date, field: "body.date")
        let notes = try request.notes.map { try InputRules.optionalText($0, field: "body.notes") } ?? old.notes
        let attachment = try request.attachmentPath.map { try InputRules.optionalText($0, field: "body.attachmentPath", limit: 4_096) } ?? old.attachmentPath
        try db.execute(
            cached: "UPDATE transactions SET notes = ?, date = ?, attachment_path = ?, updated_at = ? WHERE id = ?",
            arguments: [notes, date.description, attachment, context.now, old.id])
        if let tags = request.tags {
            let tagIds = try TagHandlers.resolve(tags, field: "body.tags", &context)
            try db.execute(cached: "DELETE FROM transaction_tags WHERE tx_id = ?", arguments: [old.id])
            try writeTags(db, txId: old.id, tagIds: tagIds)
        }
        let record = try fetch(db, id: old.id)
        try context.record(.txUpdated, id: String(old.id), data: record)
        return record
    }

    static func delete(_ request: TransactionDeleteRequest, _ context: inout WriteContext) throws -> TransactionDeleteReply {
        let db = context.db
        let first = try fetch(db, id: request.id)
        var doomed = [first]
        if let link = first.transfer { doomed.append(try fetch(db, id: link.counterpartyTransactionId)) }
        for transaction in doomed {
            let effect = try db.cachedValue(Int64.self, sql: "SELECT wallet_amount_minor FROM transactions WHERE id = ?", arguments: [transaction.id]) ?? 0
            try db.execute(cached: "DELETE FROM transactions WHERE id = ?", arguments: [transaction.id])
            try WalletHandlers.adjustBalance(db, walletId: transaction.walletId, by: -effect)
            try context.record(.txDeleted, id: String(transaction.id), data: transaction)
        }
        return TransactionDeleteReply(deletedIds: doomed.map(\.id))
    }

    static func transfer(_ request: TransferCreateRequest, _ context: inout WriteContext) throws -> TransferReply {
        let db = context.db
        guard request.fromWalletId != request.toWalletId else {
            throw ErrorBody.validation("a transfer needs two different wallets", field: "body.toWalletId")
        }
        let source = try WalletHandlers.active(db, id: request.fromWalletId, field: "body.fromWalletId")
        let destination = try WalletHandlers.active(db, id: request.toWalletId, field: "body.toWalletId")
        let sourceCurrency = try InputRules.currency(source.currency, field: "body.fromWalletId")
        let destinationCurrency = try InputRules.currency(destination.currency, field: "body.toWalletId")
        let outgoing = try InputRules.positiveAmount(request.amount, currency: sourceCurrency, field: "body.amount")
        let incoming: Money
        if let toAmount = request.toAmount {
            incoming = try InputRules.positiveAmount(toAmount, currency: destinationCurrency, field: "body.toAmount")
            if sourceCurrency == destinationCurrency && incoming != outgoing {
                throw ErrorBody.validation("both wallets are in \(sourceCurrency.code): body.toAmount must equal body.amount (record a fee as its own expense)", field: "body.toAmount")
            }
        } else {
            guard sourceCurrency == destinationCurrency else {
                throw ErrorBody.validation("the wallets are in \(sourceCurrency.code) and \(destinationCurrency.code): give body.toAmount, what arrives in \(destination.name)", field: "body.toAmount")
            }
            incoming = outgoing
        }
        let date = try InputRules.date(request.date, field: "body.date")
        let notes = try InputRules.optionalText(request.notes, field: "body.notes")
        let tagIds = try TagHandlers.resolve(request.tags ?? [], field: "body.tags", &context)

        var legIds: [Int64] = []
        // Both legs carry the same value, so they get the same base amount: the base-currency leg's
        // own amount when one is in the base currency (the transfer's real rate), else both
        // converted; when either cannot be converted, neither gets one (totals stay balanced).
        var legs: [((WalletRecord, Money, TransactionKind, WalletRecord), TransactionConversion)] = []
        for leg in [(source, outgoing, TransactionKind.expense, destination), (destination, incoming, .income, source)] {
            legs.append((leg, try TransactionConversion.make(db, amount: leg.1, wallet: leg.0, overrideRate: nil, date: date, now: context.date)))
        }
        let base = try SettingsHandlers.baseCurrency(db)
        if let inBase = legs.first(where: { $0.0.1.currency.code == base }) {
            legs = legs.map { ($0.0, $0.1.withBase(minorUnits: inBase.0.1.minorUnits, snapshot: $0.0.1.currency.code == base ? nil : $0.1.baseConversion)) }
        } else if legs.contains(where: { $0.1.baseMinorUnits == nil }) {
            legs = legs.map { ($0.0, $0.1.withBase(minorUnits: nil, snapshot: nil)) }
        }
        for ((wallet, money, kind, counterparty), converted) in legs {
            let effect = kind.sign * money.minorUnits
            try db.execute(cached: """
                    INSERT INTO transactions (kind, wallet_id, amount_minor, currency, wallet_amount_minor, base_amount_minor, base_conversion, notes, date, counterparty_wallet_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [kind.rawValue, wallet.id, money.minorUnits, money.currency.code, effect, converted.baseMinorUnits.map { kind.sign * $0 },
                            try TransactionConversion.json(converted.baseConversion), notes, date.description, counterparty.id, context.now, context.now])
            let id = db.lastInsertedRowID
            legIds.append(id)
            try writeTags(db, txId: id, tagIds: tagIds)
            try WalletHandlers.adjustBalance(db, walletId: wallet.id, by: effect)
        }
        try db.execute(cached: "UPDATE transactions SET counterparty_tx_id = ? WHERE id = ?", arguments: [legIds[1], legIds[0]])
        try db.execute(cached: "UPDATE transactions SET counterparty_tx_id = ? WHERE id = ?", arguments: [legIds[0], legIds[1]])
        let reply = TransferReply(outgoing: try fetch(db, id: legIds[0]), incoming: try fetch(db, id: legIds[1]))
        try context.record(.txCreated, id: String(legIds[0]), data: reply.outgoing)
        try context.record(.txCreated, id: String(legIds[1]), data: reply.incoming)
        return reply
    }

    // MARK: Helpers

    private static func validSplits(_ parts: [SplitPart], total: Money, db: Database) throws -> [(Money, SplitPart)] {
        guard !parts.isEmpty else { return [] }
        guard parts.count >= 2 else {
            throw ErrorBody.validation("a split needs at least two parts; use body.categoryId for a single category", field: "body.splits")
        }
        guard parts.count <= maximumSplitParts else {
            throw ErrorBody.validation("a split has at most \(maximumSplitParts) parts, got \(parts.count)", field: "body.splits")
        }
        // Each part is below InputRules.maximumMinorUnits, so this many of them cannot overflow.
        var sum: Int64 = 0
        var validated: [(Money, SplitPart)] = []
        for (index, part) in parts.enumerated() {
            let field = "body.splits[\(index)]"
            let money = try InputRules.positiveAmount(part.amount, currency: total.currency, field: "\(field).amount")
            try CategoryHandlers.requireExists(db, id: part.categoryId, field: "\(field).categoryId")
            let memo = try InputRules.optionalText(part.memo, field: "\(field).memo", limit: 1_000)
            sum += money.minorUnits
            validated.append((money, SplitPart(amount: money.decimalString, categoryId: part.categoryId, memo: memo)))
        }
        guard sum == total.minorUnits else {
            let parts = Money.format(minorUnits: sum, exponent: total.currency.exponent)
            throw ErrorBody.validation("the split parts add up to \(parts) \(total.currency.code) but the amount is \(total.decimalString) \(total.currency.code)", field: "body.splits")
        }
        return validated
    }

    private static func writeTags(_ db: Database, txId: Int64, tagIds: [Int64]) throws {
        for tagId in tagIds {
            try db.execute(cached: "INSERT INTO transaction_tags (tx_id, tag_id) VALUES (?, ?)", arguments: [txId, tagId])
        }
    }

    private static func writeSplits(_ db: Database, txId: Int64, splits: [(Money, SplitPart)]) throws {
        for (position, (money, part)) in splits.enumerated() {
            try db.execute(cached: "INSERT INTO splits (tx_id, position, amount_minor, category_id, memo) VALUES (?, ?, ?, ?, ?)",
                arguments: [txId, position, money.minorUnits, part.categoryId, part.memo])
        }
    }

    /// Builds records for rows, loading tags and splits for all of them in two queries.
    private static func records(_ db: Database, rows: [Row]) throws -> [TransactionRecord] {
        guard !rows.isEmpty else { return [] }
        let ids: [Int64] = rows.map { $0["id"] }
        // One transaction (every write's reply) uses cached statements; a list passes its ids as
        // bound parameters (GRDB expands the array), uncached because the SQL varies with the count.
        let tagRows: [Row], splitRows: [Row]
        if ids.count == 1 {
            tagRows = try db.cachedRows(sql: "SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id = ? ORDER BY g.name COLLATE NOCASE", arguments: [ids[0]])
            splitRows = try db.cachedRows(sql: "SELECT s.*, t.currency FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id = ? ORDER BY s.position", arguments: [ids[0]])
        } else {
            tagRows = try SQLRequest<Row>("SELECT tt.tx_id, g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.tx_id IN \(ids) ORDER BY g.name COLLATE NOCASE").fetchAll(db)
            splitRows = try SQLRequest<Row>("SELECT s.*, t.currency FROM splits s JOIN transactions t ON t.id = s.tx_id WHERE s.tx_id IN \(ids) ORDER BY s.tx_id, s.position").fetchAll(db)
        }
        var tags: [Int64: [String]] = [:]
        for row in tagRows { tags[row["tx_id"], default: []].append(row["name"]) }
        var splits: [Int64: [SplitPart]] = [:]
        for row in splitRows {
            splits[row["tx_id"], default: []].append(SplitPart(amount: InputRules.format(row["amount_minor"], row["currency"]), categoryId: row["category_id"], memo: row["memo"]))
        }
        let base = try SettingsHandlers.baseCurrency(db)
        return rows.map { row in
            let id: Int64 = row["id"]
            let currency: String = row["currency"]
            let walletMinor: Int64 = row["wallet_amount_minor"]
            let baseMinor: Int64? = row["base_amount_minor"]
            let counterpartyWallet: Int64? = row["counterparty_wallet_id"]
            let counterpartyTx: Int64? = row["counterparty_tx_id"]
            return TransactionRecord(
                id: id, kind: TransactionKind(rawValue: row["kind"]) ?? .expense, walletId: row["wallet_id"],
                amount: InputRules.format(row["amount_minor"], currency), currency: currency,
                categoryId: row["category_id"], notes: row["notes"], date: row["date"], tags: tags[id] ?? [],
                attachmentPath: row["attachment_path"],
                transfer: counterpartyWallet.flatMap { wallet in counterpartyTx.map { TransferLink(counterpartyWalletId: wallet, counterpartyTransactionId: $0) } },
                splits: splits[id] ?? [],
                walletAmount: InputRules.format(Int64(walletMinor.magnitude), row["wallet_currency"]),
                baseAmount: base.flatMap { base in baseMinor.map { InputRules.format(Int64($0.magnitude), base) } }, baseCurrency: base,
                conversion: TransactionConversion.snapshot(row["conversion"]), baseConversion: TransactionConversion.snapshot(row["base_conversion"]),
                createdAt: row["created_at"], updatedAt: row["updated_at"])
        }
    }
}
