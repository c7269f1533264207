import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.trade.buy|sell|income|split|transfer|delete|list`: records trades with their rate
/// snapshot and linked cash, and keeps the derived lots and gains in step in the same write.
enum TradeHandlers {
    static func buy(_ request: TradeBuyRequest, _ context: inout WriteContext) throws -> TradeRecord {
        var trade = try market(.buy, accountId: request.accountId, assetId: request.assetId, quantity: request.quantity, price: request.price, fee: request.fee,
                               date: request.date, rate: request.rate, notes: request.notes, &context)
        try record(&trade, cash: request.walletId.map { ($0, request.cashAmount) }, &context)
        return try TradeRecords.fetch(context.db, id: trade.id ?? 0)
    }

    static func sell(_ request: TradeSellRequest, _ context: inout WriteContext) throws -> TradeRecord {
        var trade = try market(.sell, accountId: request.accountId, assetId: request.assetId, quantity: request.quantity, price: request.price, fee: request.fee,
                               date: request.date, rate: request.rate, notes: request.notes, &context)
        trade.lots = try selections(request.lots, quantity: request.quantity)
        try record(&trade, cash: request.walletId.map { ($0, request.cashAmount) }, &context)
        return try TradeRecords.fetch(context.db, id: trade.id ?? 0)
    }

    static func income(_ request: TradeIncomeRequest, _ context: inout WriteContext) throws -> TradeRecord {
        let db = context.db
        guard [.dividend, .interest, .distribution].contains(request.kind) else {
            throw LedgerError.invalid("body.kind must be dividend, interest or distribution, got \(request.kind.rawValue)", field: .body("kind"))
        }
        let account = try InvestAccountRow.active(db, id: request.accountId, field: .body("accountId"))
        _ = try AssetRow.find(db, id: request.assetId, field: .body("assetId"))
        let wallet = try WalletRow.active(db, id: request.walletId, field: .body("walletId")).record
        let currency = try InputRules.currency(wallet.currency, field: .body("walletId"))
        let amount = try InputRules.positiveAmount(request.amount, currency: currency, field: .body("amount"))
        let date = try TradeRules.date(request.date, today: Timestamp.today(at: context.date), field: .body("date"))
        let base = try InputRules.currency(account.baseCurrency, field: .body("accountId"))
        let rate = try TradeRules.rate(request.rate, from: currency, to: base, day: date, db: db, now: context.date, field: .body("rate"))
        if let category = request.categoryId { try CategoryRow.requireExists(db, id: category, field: .body("categoryId")) }
        var trade = TradeRow(
            id: nil, kind: request.kind.rawValue, accountId: account.id, assetId: request.assetId, date: date, quantity: nil, price: nil, feeMinor: nil,
            amountMinor: amount.minorUnits, currency: currency.code, rate: rate.decimalString,
            amountBaseMinor: try TradeRules.convert(amount.minorUnits, from: currency, to: base, rate: rate, field: .body("amount")), baseCurrency: base.code,
            ratio: nil, toAccountId: nil, lots: nil, cashWalletId: nil, cashTxId: nil, cashAmountMinor: nil, cashCurrency: nil,
            notes: try InputRules.optionalText(request.notes, field: .body("notes")), createdAt: context.now)
        try trade.insert(db)
        let symbol = try TradeRecords.symbol(db, assetId: request.assetId)
        let writer = TransactionWriter(db: db)
        let cashId = try writer.insert(
            TransactionCreateRequest(kind: .income, walletId: wallet.id, amount: request.amount, categoryId: request.categoryId,
                                     notes: trade.notes ?? "\(request.kind.rawValue.capitalized) \(symbol) (trade \(trade.id ?? 0))", date: date),
            &context, trade: (trade.id ?? 0, false))
        try writer.finish()
        trade.cashWalletId = wallet.id
        trade.cashTxId = cashId
        trade.cashAmountMinor = amount.minorUnits
        trade.cashCurrency = currency.code
        try trade.update(db)
        try context.record(.txCreated, id: String(cashId), data: try TransactionHandlers.fetch(db, id: cashId))
        let record = try TradeRecords.fetch(db, id: trade.id ?? 0)
        try context.record(.tradeRecorded, id: String(record.id), data: record)
        return record
    }

    static func split(_ request: TradeSplitRequest, _ context: inout WriteContext) throws -> TradeRecord {
        let db = context.db
        let asset = try AssetRow.find(db, id: request.assetId, field: .body("assetId"))
        guard TradeRules.ratio(request.ratio) != nil else {
            throw LedgerError.invalid("body.ratio must be \"new:old\", two different whole numbers from 1 to 1000 (\"2:1\" doubles each holding), got '\(request.ratio)'", field: .body("ratio"))
        }
        var trade = TradeRow(
            id: nil, kind: TradeKind.split.rawValue, accountId: nil, assetId: request.assetId,
            date: try TradeRules.date(request.date, today: Timestamp.today(at: context.date), field: .body("date")), quantity: nil, price: nil, feeMinor: nil,
            amountMinor: nil, currency: asset.quoteCurrency, rate: nil, amountBaseMinor: nil, baseCurrency: nil, ratio: request.ratio, toAccountId: nil, lots: nil,
            cashWalletId: nil, cashTxId: nil, cashAmountMinor: nil, cashCurrency: nil, notes: try InputRules.optionalText(request.notes, field: .body("notes")),
            createdAt: context.now)
        try trade.insert(db)
        try TradeReplay.record(db, trade: trade, field: .body("ratio"))
        let record = try TradeRecords.fetch(db, id: trade.id ?? 0)
        try context.record(.tradeRecorded, id: String(record.id), data: record)
        return record
    }

    static func transfer(_ request: TradeTransferRequest, _ context: inout WriteContext) throws -> TradeRecord {
        let db = context.db
        let from = try InvestAccountRow.find(db, id: request.fromAccountId, field: .body("fromAccountId"))
        let to = try InvestAccountRow.active(db, id: request.toAccountId, field: .body("toAccountId"))
        guard from.id != to.id else { throw LedgerError.invalid("body.toAccountId is the sending account", field: .body("toAccountId")) }
        guard from.baseCurrency == to.baseCurrency else {
            throw LedgerError.invalid("'\(from.name)' counts in \(from.baseCurrency) and '\(to.name)' in \(to.baseCurrency): lots move with their base cost, so both accounts must count in the same currency", field: .body("toAccountId"))
        }
        let asset = try AssetRow.find(db, id: request.assetId, field: .body("assetId"))
        let quantity = try TradeRules.quantity(request.quantity, field: .body("quantity"))
        var trade = TradeRow(
            id: nil, kind: TradeKind.transfer.rawValue, accountId: from.id, assetId: request.assetId,
            date: try TradeRules.date(request.date, today: Timestamp.today(at: context.date), field: .body("date")),
            quantity: quantity.description, price: nil, feeMinor: nil, amountMinor: nil,
            currency: asset.quoteCurrency, rate: nil, amountBaseMinor: nil, baseCurrency: from.baseCurrency, ratio: nil, toAccountId: to.id,
            lots: try selections(request.lots, quantity: request.quantity), cashWalletId: nil, cashTxId: nil, cashAmountMinor: nil, cashCurrency: nil,
            notes: try InputRules.optionalText(request.notes, field: .body("notes")), createdAt: context.now)
        try trade.insert(db)
        try TradeReplay.record(db, trade: trade, field: request.lots == nil ? .body("quantity") : .body("lots"))
        let record = try TradeRecords.fetch(db, id: trade.id ?? 0)
        try context.record(.tradeRecorded, id: String(record.id), data: record)
        return record
    }

    static func delete(_ request: TradeDeleteRequest, _ context: inout WriteContext) throws -> TradeDeleteReply {
        try remove(id: request.id, merging: false, &context)
    }

    /// Deletes a trade and its cash, and replays its asset. `merging`: a delete from another
    /// device, which a later trade here cannot refuse; the lots leave that trade out (D312).
    static func remove(id: Int64, merging: Bool, _ context: inout WriteContext) throws -> TradeDeleteReply {
        let db = context.db
        let trade = try TradeRow.find(db, id: id, field: .body("id"))
        let deleted = try TradeRecords.fetch(db, id: id)
        let before = try RealisationRow.sumsBySale(db, assetId: trade.assetId)
        if let cash = trade.cashTxId { try deleteCash(db, transactionId: cash, &context) }
        try TradeRow.delete(db, id: id)
        try RealisationRow.delete(db, tradeId: id)
        try TradeReplay.replay(db, assetId: trade.assetId, field: .body("id"), merging: merging)
        let after = try RealisationRow.sumsBySale(db, assetId: trade.assetId)
        let changed = after.keys.filter { before[$0] != after[$0] }.sorted()
        // A sale the lots now leave out has no realisations left: it changed too.
        let leftOut = before.keys.filter { after[$0] == nil && $0 != id }
        let recomputed = try (changed + leftOut).sorted().map { try TradeRecords.fetch(db, id: $0) }
        try context.record(.tradeDeleted, id: String(id), data: deleted)
        return TradeDeleteReply(deleted: deleted, recomputed: recomputed)
    }

    static func list(_ request: TradeListRequest, _ db: Database) throws -> TradeListReply {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let account = try InputRules.optionalId(request.accountId, field: .body("accountId")) {
            conditions.append("(account_id = ? OR to_account_id = ? OR (kind = 'split' AND asset_id IN (SELECT asset_id FROM trades WHERE account_id = ?)))")
            arguments += [account, account, account]
        }
        if let asset = try InputRules.optionalId(request.assetId, field: .body("assetId")) { conditions.append("asset_id = ?"); arguments += [asset] }
        if let from = request.from { conditions.append("date >= ?"); arguments += [try InputRules.date(from, field: .body("from")).description] }
        if let to = request.to { conditions.append("date <= ?"); arguments += [try InputRules.date(to, field: .body("to")).description] }
        let rows = try TradeRow.matching(db, conditions: conditions, arguments: arguments)
        return TradeListReply(trades: try TradeRecords.records(db, rows))
    }

    // MARK: Steps

    /// A buy or sale checked and computed, not yet stored.
    static func market(_ kind: TradeKind, accountId: Int64, assetId: Int64, quantity quantityText: String, price priceText: String, fee feeText: String?,
                       date dateText: String, rate rateText: String?, notes: String?, _ context: inout WriteContext,
                       field: (String) -> FieldPath = { .body($0) }) throws -> TradeRow {
        let db = context.db
        let account = try InvestAccountRow.active(db, id: accountId, field: field("accountId"))
        let asset = try AssetRow.find(db, id: assetId, field: field("assetId"))
        let currency = try asset.currency
        let base = try InputRules.currency(account.baseCurrency, field: field("accountId"))
        let quantity = try TradeRules.quantity(quantityText, field: field("quantity"))
        let price = try TradeRules.price(priceText, field: field("price"))
        let fee = try TradeRules.fee(feeText, currency: currency, field: field("fee"))
        let date = try TradeRules.date(dateText, today: Timestamp.today(at: context.date), field: field("date"))
        let amount = try TradeRules.amount(quantity, price, currency: currency, field: field("quantity"))
        let rate = try TradeRules.rate(rateText, from: currency, to: base, day: date, db: db, now: context.date, field: field("rate"))
        let net = kind == .buy ? amount + fee : amount - fee
        guard net > 0 else {
            throw LedgerError.invalid("\(field("fee")) \(feeText ?? "") is not less than the sale's amount \(Money.format(minorUnits: amount, exponent: currency.exponent)) \(currency.code)", field: field("fee"))
        }
        return TradeRow(
            id: nil, kind: kind.rawValue, accountId: account.id, assetId: assetId, date: date, quantity: quantity.description, price: price.decimalString,
            feeMinor: fee, amountMinor: amount, currency: currency.code, rate: rate.decimalString,
            amountBaseMinor: try TradeRules.convert(net, from: currency, to: base, rate: rate, field: field("rate")), baseCurrency: base.code,
            ratio: nil, toAccountId: nil, lots: nil, cashWalletId: nil, cashTxId: nil, cashAmountMinor: nil, cashCurrency: nil,
            notes: try InputRules.optionalText(notes, field: field("notes")), createdAt: context.now)
    }

    /// Stores a buy or sale, applies it to the lots, writes its cash transaction and its event.
    static func record(_ trade: inout TradeRow, cash: (walletId: Int64, amount: String?)?, _ context: inout WriteContext, field: (String) -> FieldPath = { .body($0) }) throws {
        let db = context.db
        try trade.insert(db)
        try TradeReplay.record(db, trade: trade, field: trade.lots == nil ? field("quantity") : field("lots"))
        if let cash {
            let wallet = try WalletRow.active(db, id: cash.walletId, field: field("walletId")).record
            let walletCurrency = try InputRules.currency(wallet.currency, field: field("walletId"))
            let net = trade.tradeKind == .buy ? (trade.amountMinor ?? 0) + (trade.feeMinor ?? 0) : (trade.amountMinor ?? 0) - (trade.feeMinor ?? 0)
            let amount: Int64
            if let text = cash.amount {
                amount = try InputRules.positiveAmount(text, currency: walletCurrency, field: field("cashAmount")).minorUnits
            } else if wallet.currency == trade.currency {
                amount = net
            } else {
                throw LedgerError.invalid("wallet '\(wallet.name)' is in \(wallet.currency) and the trade in \(trade.currency): give \(field("cashAmount")), what the wallet paid or received in \(wallet.currency)", field: field("cashAmount"))
            }
            let symbol = try TradeRecords.symbol(db, assetId: trade.assetId)
            let writer = TransactionWriter(db: db)
            let cashId = try writer.insert(
                TransactionCreateRequest(kind: trade.tradeKind == .buy ? .expense : .income, walletId: wallet.id,
                                         amount: Money.format(minorUnits: amount, exponent: walletCurrency.exponent),
                                         notes: "\(trade.tradeKind == .buy ? "Buy" : "Sell") \(trade.quantity ?? "") \(symbol) @ \(trade.price ?? "") \(trade.currency) (trade \(trade.id ?? 0))",
                                         date: trade.date),
                &context, trade: (trade.id ?? 0, true))
            try writer.finish()
            trade.cashWalletId = wallet.id
            trade.cashTxId = cashId
            trade.cashAmountMinor = amount
            trade.cashCurrency = wallet.currency
            try trade.update(db)
            try context.record(.txCreated, id: String(cashId), data: try TransactionHandlers.fetch(db, id: cashId))
        }
        try context.record(.tradeRecorded, id: String(trade.id ?? 0), data: try TradeRecords.fetch(db, id: trade.id ?? 0))
    }

    /// Named lots as stored (JSON), checked to add up to the quantity; nil when none are named.
    static func selections(_ lots: [LotSelection]?, quantity: String, field: (String) -> FieldPath = { .body($0) }) throws -> String? {
        guard let lots else { return nil }
        guard !lots.isEmpty else { throw LedgerError.invalid("\(field("lots")) is empty: leave it out to take lots by the account's method", field: field("lots")) }
        var total = Quantity.zero
        var kept: [LotSelection] = []
        for (index, lot) in lots.enumerated() {
            let part = try TradeRules.quantity(lot.quantity, field: field("lots")[index].member("quantity"))
            total = total + part
            kept.append(LotSelection(lotId: lot.lotId, quantity: part.description))
        }
        let whole = try TradeRules.quantity(quantity, field: field("quantity"))
        guard total == whole else {
            throw LedgerError.invalid("the lots named add up to \(total), not the quantity \(whole)", field: field("lots"))
        }
        return String(decoding: try MessageCoding.encode(kept), as: UTF8.self)
    }

    /// Removes a trade's cash transaction as `tx.delete` would, with its event.
    private static func deleteCash(_ db: Database, transactionId: Int64, _ context: inout WriteContext) throws {
        guard let cash = try? TransactionHandlers.fetch(db, id: transactionId) else { return }
        try LedgerTotals.apply(db, ids: [transactionId], sign: -1)
        let effect = try TransactionRow.walletEffect(db, id: transactionId)
        try TransactionRow.delete(db, id: transactionId)
        try WalletRow.adjustBalance(db, walletId: cash.walletId, by: -effect)
        try context.record(.txDeleted, id: String(transactionId), data: cash)
    }
}
