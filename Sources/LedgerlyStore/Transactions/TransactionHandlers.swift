import Foundation
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

    static func fetch(_ db: Database, id: Int64, field: FieldPath = .body("id")) throws -> TransactionRecord {
        guard let row = try TransactionRow.find(db, id: id) else {
            throw LedgerError.notFound("there is no transaction \(id)", field: field)
        }
        return try records(db, stored: [row])[0]
    }

    static func get(_ request: TransactionGetRequest, _ db: Database) throws -> TransactionRecord {
        try fetch(db, id: try InputRules.positiveId(request.id, field: .body("id")))
    }

    static func list(_ request: TransactionListRequest, _ db: Database) throws -> TransactionListReply {
        var filter = TransactionRow.ListFilter()
        filter.walletId = try InputRules.optionalId(request.walletId, field: .body("walletId"))
        if let categoryId = try InputRules.optionalId(request.categoryId, field: .body("categoryId")) {
            try CategoryRow.requireExists(db, id: categoryId, field: .body("categoryId"))
            filter.categoryId = categoryId
        }
        filter.tag = request.tag
        if let text = request.text, !text.isEmpty { filter.text = text }
        filter.from = try request.from.map { try InputRules.date($0, field: .body("from")).description }
        filter.to = try request.to.map { try InputRules.date($0, field: .body("to")).description }
        let limit = request.limit ?? 100
        guard (1...10_000).contains(limit) else { throw LedgerError.invalid("body.limit must be 1 to 10000, got \(limit)", field: .body("limit")) }
        let offset = request.offset ?? 0
        guard offset >= 0 else { throw LedgerError.invalid("body.offset must not be negative", field: .body("offset")) }
        var after: (date: String, id: Int64)?
        if let cursor = request.after {
            guard request.offset == nil else { throw LedgerError.invalid("give body.after or body.offset, not both", field: .body("after")) }
            after = (try InputRules.date(cursor.date, field: .body("after").member("date")).description,
                     try InputRules.positiveId(cursor.id, field: .body("after").member("id")))
        }
        // One row more than the page says whether there is a next page.
        let (total, rows) = try TransactionRow.list(db, filter, after: after, limit: limit + 1, offset: offset)
        let shown = Array(rows.prefix(limit))
        let next = rows.count > limit ? shown.last.map { TransactionListCursor(date: $0.date, id: $0.id) } : nil
        return TransactionListReply(transactions: try records(db, stored: shown), total: total, next: next)
    }

    // MARK: Writes

    static func create(_ request: TransactionCreateRequest, _ context: inout WriteContext) throws -> TransactionRecord {
        let writer = TransactionWriter(db: context.db)
        let id = try writer.insert(request, &context)
        try writer.finish()
        let record = try fetch(context.db, id: id)
        try context.record(.txCreated, id: String(id), data: record)
        return record
    }

    static func update(_ request: TransactionUpdateRequest, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let old = try fetch(db, id: request.id)
        try requireNotTradeCash(db, id: old.id, doing: "changed")
        // Out of the totals as they were, back in as they are now (date, amount or category may change).
        let touched = [old.id] + (old.transfer.map { [$0.counterpartyTransactionId] } ?? [])
        try LedgerTotals.apply(db, ids: touched, sign: -1)
        let updated = try applyUpdate(request, to: old, &context)
        try LedgerTotals.apply(db, ids: touched, sign: 1)
        return updated
    }

    private static func applyUpdate(_ request: TransactionUpdateRequest, to old: TransactionRecord, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        if let link = old.transfer {
            let forbidden = [("kind", request.kind != nil), ("walletId", request.walletId != nil), ("amount", request.amount != nil),
                             ("categoryId", request.categoryId != nil), ("splits", request.splits != nil)]
            if let field = forbidden.first(where: \.1)?.0 {
                throw LedgerError.invalid("transaction \(old.id) is a transfer leg: only notes, date, tags and attachment can change; delete the transfer and record it again to change body.\(field)", field: .body(field))
            }
            // Both legs describe one transfer: they keep the same date, notes, tags and attachment.
            let updated = try updateDescription(request, of: old, &context)
            _ = try updateDescription(request, of: try fetch(db, id: link.counterpartyTransactionId), &context)
            return updated
        }
        let oldWallet = try WalletRow.find(db, id: old.walletId).record
        let wallet = request.walletId == nil || request.walletId == old.walletId
            ? oldWallet
            : try WalletRow.active(db, id: request.walletId!, field: .body("walletId")).record
        // The kept rates convert into the old wallet's currency; a move keeps them valid only
        // within that currency.
        guard wallet.currency == oldWallet.currency else {
            throw LedgerError.invalid("wallet '\(wallet.name)' is in \(wallet.currency), not \(oldWallet.currency): delete the transaction and record it again in that wallet", field: .body("walletId"))
        }
        let currency = try InputRules.currency(old.currency, field: .body("currency"))
        let kind = request.kind ?? old.kind
        let amount = try InputRules.positiveAmount(request.amount ?? old.amount, currency: currency, field: .body("amount"))
        if let categoryId = request.categoryId { try CategoryRow.requireExists(db, id: categoryId, field: .body("categoryId")) }
        let splits: [(Money, SplitPart)]
        do {
            splits = try validSplits(request.splits ?? old.splits, total: amount, db: db)
        } catch let error as LedgerError where request.splits == nil {
            throw LedgerError.invalid("\(error.reason); send new splits together with the new amount", field: .body("amount"))
        }
        // A transaction has a category or splits: new splits clear the category, and a new
        // category needs the splits cleared in the same request.
        if request.categoryId != nil && !splits.isEmpty {
            throw LedgerError.invalid("transaction \(old.id) is split: clear its splits (body.splits = []) to give it one category", field: .body("categoryId"))
        }
        let categoryId = splits.isEmpty ? (request.categoryId ?? old.categoryId) : nil
        let oldEffect = try TransactionRow.walletEffect(db, id: old.id)
        let converted = try TransactionConversion.reapply(
            amount: amount, walletCurrency: try InputRules.currency(wallet.currency, field: .body("walletId")),
            conversion: old.conversion, baseConversion: old.baseConversion, base: old.baseCurrency)
        let effect = kind.sign * converted.walletMoney.minorUnits

        try TransactionRow.updateAmounts(db, id: old.id, kind: kind.rawValue, walletId: wallet.id, amountMinor: amount.minorUnits, walletAmountMinor: effect,
                                         baseAmountMinor: converted.baseMinorUnits.map { kind.sign * $0 }, categoryId: categoryId)
        if request.splits != nil {
            try TransactionRow.deleteSplits(db, txId: old.id)
            try TransactionRow.insertSplits(db, txId: old.id, date: old.date, splits: splits)
        }
        try WalletRow.adjustBalance(db, walletId: old.walletId, by: -oldEffect)
        try WalletRow.adjustBalance(db, walletId: wallet.id, by: effect)
        return try updateDescription(request, of: old, &context)
    }

    /// Applies the fields every transaction may change (notes, date, tags, attachment), stamps
    /// the update time and logs `tx.updated` with the transaction as it now is.
    private static func updateDescription(_ request: TransactionUpdateRequest, of old: TransactionRecord, _ context: inout WriteContext) throws -> TransactionRecord {
        let db = context.db
        let date = try InputRules.date(request.date ?? old.date, field: .body("date"))
        let notes = try request.notes.map { try InputRules.optionalText($0, field: .body("notes")) } ?? old.notes
        let attachment = try request.attachmentPath.map { try InputRules.optionalText($0, field: .body("attachmentPath"), limit: 4_096) } ?? old.attachmentPath
        try TransactionRow.updateDescription(db, id: old.id, notes: notes, date: date.description, attachmentPath: attachment, updatedAt: context.now)
        if date.description != old.date {
            try TransactionRow.moveSplits(db, txId: old.id, to: date.description)
        }
        if let tags = request.tags {
            let tagIds = try TagHandlers.resolve(tags, field: .body("tags"), &context)
            try TransactionRow.deleteTags(db, txId: old.id)
            try TransactionRow.insertTags(db, txId: old.id, tagIds: tagIds)
        }
        let record = try fetch(db, id: old.id)
        try context.record(.txUpdated, id: String(old.id), data: record)
        return record
    }

    static func delete(_ request: TransactionDeleteRequest, _ context: inout WriteContext) throws -> TransactionDeleteReply {
        let db = context.db
        let first = try fetch(db, id: request.id)
        try requireNotTradeCash(db, id: first.id, doing: "deleted")
        var doomed = [first]
        if let link = first.transfer { doomed.append(try fetch(db, id: link.counterpartyTransactionId)) }
        try LedgerTotals.apply(db, ids: doomed.map(\.id), sign: -1)
        for transaction in doomed {
            let effect = try TransactionRow.walletEffect(db, id: transaction.id)
            try TransactionRow.delete(db, id: transaction.id)
            try WalletRow.adjustBalance(db, walletId: transaction.walletId, by: -effect)
            try context.record(.txDeleted, id: String(transaction.id), data: transaction)
        }
        let withdrawn = try GoalHandlers.withdrawContributions(movedBy: doomed.map(\.id), &context)
        return TransactionDeleteReply(deletedIds: doomed.map(\.id), withdrawnContributions: withdrawn)
    }

    static func transfer(_ request: TransferCreateRequest, _ context: inout WriteContext) throws -> TransferReply {
        let db = context.db
        let writer = TransactionWriter(db: db)
        let legIds = try writer.insertTransfer(request, &context)
        try writer.finish()
        let reply = TransferReply(outgoing: try fetch(db, id: legIds[0]), incoming: try fetch(db, id: legIds[1]))
        try context.record(.txCreated, id: String(legIds[0]), data: reply.outgoing)
        try context.record(.txCreated, id: String(legIds[1]), data: reply.incoming)
        return reply
    }

    // MARK: Helpers

    /// A trade's cash moves with its trade: changing it alone would leave the trade's figures and
    /// the wallet disagreeing in silence.
    /// A liability payment likewise moves with its entry in the liability's history.
    static func requireNotTradeCash(_ db: Database, id: Int64, doing change: String) throws {
        if let trade = try TransactionRow.tradeId(db, id: id) {
            throw LedgerError.conflict("transaction \(id) is the cash of investment trade \(trade) and cannot be \(change) on its own: delete the trade (`ledgerly invest delete \(trade)`) and record it again", field: .body("id"))
        }
        if let liability = try TransactionRow.liabilityId(db, id: id) {
            throw LedgerError.conflict("transaction \(id) is a payment of liability \(liability) and cannot be \(change) on its own: it lowered the liability's balance; record a correcting `ledgerly liability revalue` instead", field: .body("id"))
        }
    }

    /// `requireCategory` checks a part's category (a bulk writer passes one that remembers).
    static func validSplits(_ parts: [SplitPart], total: Money, db: Database, requireCategory: ((Int64, FieldPath) throws -> Void)? = nil) throws -> [(Money, SplitPart)] {
        guard !parts.isEmpty else { return [] }
        guard parts.count >= 2 else {
            throw LedgerError.invalid("a split needs at least two parts; use body.categoryId for a single category", field: .body("splits"))
        }
        guard parts.count <= maximumSplitParts else {
            throw LedgerError.invalid("a split has at most \(maximumSplitParts) parts, got \(parts.count)", field: .body("splits"))
        }
        // Each part is below InputRules.maximumMinorUnits, so this many of them cannot overflow.
        var sum: Int64 = 0
        var validated: [(Money, SplitPart)] = []
        for (index, part) in parts.enumerated() {
            let field = FieldPath.body("splits")[index]
            let money = try InputRules.positiveAmount(part.amount, currency: total.currency, field: field.member("amount"))
            if let requireCategory {
                try requireCategory(part.categoryId, field.member("categoryId"))
            } else {
                try CategoryRow.requireExists(db, id: part.categoryId, field: field.member("categoryId"))
            }
            let memo = try InputRules.optionalText(part.memo, field: field.member("memo"), limit: 1_000)
            sum += money.minorUnits
            validated.append((money, SplitPart(amount: money.decimalString, categoryId: part.categoryId, memo: memo)))
        }
        guard sum == total.minorUnits else {
            let parts = Money.format(minorUnits: sum, exponent: total.currency.exponent)
            throw LedgerError.invalid("the split parts add up to \(parts) \(total.currency.code) but the amount is \(total.decimalString) \(total.currency.code)", field: .body("splits"))
        }
        return validated
    }

    /// Builds records for rows, loading tags and splits for all of them in two queries.
    static func records(_ db: Database, stored rows: [TransactionRow]) throws -> [TransactionRecord] {
        guard !rows.isEmpty else { return [] }
        let (tags, splits) = try TransactionRow.tagsAndSplits(db, ids: rows.map(\.id))
        let base = try SettingsHandlers.baseCurrency(db)
        // Transactions of a day share a few rate snapshots: each stored text is decoded once.
        var snapshots: [String: RateSnapshot] = [:]
        func snapshot(_ text: String?) -> RateSnapshot? {
            guard let text else { return nil }
            if let known = snapshots[text] { return known }
            let decoded = TransactionConversion.snapshot(text)
            snapshots[text] = decoded
            return decoded
        }
        return rows.map { $0.record(tags: tags[$0.id] ?? [], splits: splits[$0.id] ?? [], base: base, snapshot: snapshot) }
    }
}
