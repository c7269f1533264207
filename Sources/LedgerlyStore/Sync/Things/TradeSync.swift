import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Investment trades, each with its cash transaction: the trade's figures as recorded (its rate
/// snapshot, amounts and base amount are kept, not computed again from this device's rates), the
/// lots a sale named by the buying trade's global id, and the cash as the transaction was written
/// (its wallet and base amounts), so every device holds the same trade and the same wallet
/// balance (D312).
///
/// Trades are never edited, only deleted. A merged history may hold a trade the lots cannot take
/// (two devices each sold the whole holding while apart): it is kept and marked unapplied, on
/// every device alike (`TradeReplay`).
enum TradeSync: SyncedThing {
    static let entity = "trade"

    struct Lot: Codable, Equatable {
        /// The buying trade's global id (a lot is known by the trade that opened it).
        var lot: String
        var quantity: String
    }

    /// The cash transaction as written on the device that recorded the trade.
    struct Cash: Codable, Equatable {
        var wallet: String
        var amount: String
        var currency: String
        var category: String?
        var notes: String?
        var walletAmount: String
        var baseAmount: String?
        var conversion: RateSnapshot?
        var baseConversion: RateSnapshot?
        var createdAt: String
        var updatedAt: String
    }

    private struct Fields: Codable {
        var kind: TradeKind
        var account: String?
        var security: String
        var date: String
        var quantity: String?
        var price: String?
        var fee: String?
        var amount: String?
        var currency: String
        var rate: String?
        var amountBase: String?
        var baseCurrency: String?
        var ratio: String?
        var toAccount: String?
        var lots: [Lot]?
        var cash: Cash?
        var notes: String?
        var createdAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: "trades", db, after: after, limit: limit)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        guard let trade = try TradeRow.fetchOne(db, key: id) else { return nil }
        let format = { (minor: Int64?, currency: String?) in minor.map { InputRules.format($0, currency ?? trade.currency) } }
        let cash = try trade.cashTxId.map { cashId in
            let record = try TransactionHandlers.fetch(db, id: cashId)
            return Cash(
                wallet: try identities.gid(WalletSync.self, localId: record.walletId), amount: record.amount, currency: record.currency,
                category: try record.categoryId.map { try identities.gid(CategorySync.self, localId: $0) }, notes: record.notes,
                walletAmount: record.walletAmount, baseAmount: record.baseAmount, conversion: record.conversion, baseConversion: record.baseConversion,
                createdAt: record.createdAt, updatedAt: record.updatedAt)
        }
        return try SyncFields.object(Fields(
            kind: trade.tradeKind, account: try trade.accountId.map { try identities.gid(InvestAccountSync.self, localId: $0) },
            security: try identities.gid(SecuritySync.self, localId: trade.assetId), date: trade.date, quantity: trade.quantity, price: trade.price,
            fee: format(trade.feeMinor, nil), amount: format(trade.amountMinor, nil), currency: trade.currency, rate: trade.rate,
            amountBase: format(trade.amountBaseMinor, trade.baseCurrency), baseCurrency: trade.baseCurrency, ratio: trade.ratio,
            toAccount: try trade.toAccountId.map { try identities.gid(InvestAccountSync.self, localId: $0) },
            lots: try trade.selections?.map { Lot(lot: try identities.gid(TradeSync.self, localId: $0.lotId), quantity: $0.quantity) },
            cash: cash, notes: trade.notes, createdAt: trade.createdAt))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        let assetId = try identities.localId(SecuritySync.self, gid: fields.security, field: "security")
        let asset = try AssetRow.find(db, id: assetId, field: field)
        guard fields.currency == asset.quoteCurrency else {
            throw LedgerError.invalid("a synced trade of \(asset.symbol) is in \(fields.currency), but it is quoted in \(asset.quoteCurrency) here", field: field)
        }
        let currency = try asset.currency
        let base = try fields.baseCurrency.map { try InputRules.currency($0, field: field) }
        let minor = { (text: String?, currency: Currency?) throws -> Int64? in
            guard let text else { return nil }
            return try InputRules.amount(text, currency: currency ?? asset.currency, field: field).minorUnits
        }
        var trade = TradeRow(
            id: nil, kind: fields.kind.rawValue, accountId: try fields.account.map { try identities.localId(InvestAccountSync.self, gid: $0, field: "account") },
            assetId: assetId, date: try InputRules.date(fields.date, field: field).description,
            quantity: try fields.quantity.map { try TradeRules.quantity($0, field: field).description },
            price: try fields.price.map { try TradeRules.price($0, field: field).decimalString },
            feeMinor: try minor(fields.fee, currency), amountMinor: try minor(fields.amount, currency), currency: currency.code,
            rate: try fields.rate.map { try TradeRules.price($0, field: field).decimalString }, amountBaseMinor: try minor(fields.amountBase, base), baseCurrency: base?.code,
            ratio: fields.ratio, toAccountId: try fields.toAccount.map { try identities.localId(InvestAccountSync.self, gid: $0, field: "toAccount") },
            lots: nil, cashWalletId: nil, cashTxId: nil, cashAmountMinor: nil, cashCurrency: nil,
            notes: try InputRules.optionalText(fields.notes, field: field), createdAt: try InputRules.timestamp(fields.createdAt, field: field))
        if let ratio = fields.ratio, TradeRules.ratio(ratio) == nil { throw LedgerError.invalid("a synced split has the ratio '\(ratio)', which is not one", field: field) }
        if let lots = fields.lots {
            let picks = try lots.map { LotSelection(lotId: try identities.localId(TradeSync.self, gid: $0.lot, field: "lots"), quantity: $0.quantity) }
            trade.lots = try TradeHandlers.selections(picks, quantity: fields.quantity ?? "", field: { _ in field })
        }
        // A changed trade (never edited, so only a repair) is the old one gone and this one made.
        if let localId { _ = try TradeHandlers.remove(id: localId, merging: true, &context) }
        trade.id = try localId ?? (try SyncNames.freeId(idHint, table: "trades", db))
        try trade.insert(db)
        try TradeReplay.record(db, trade: trade, field: field, merging: true)
        if let cash = fields.cash {
            let walletId = try identities.localId(WalletSync.self, gid: cash.wallet, field: "cash.wallet")
            let writer = TransactionWriter(db: db)
            let cashId = try writer.insert(
                TransactionCreateRequest(kind: fields.kind == .buy ? .expense : .income, walletId: walletId, amount: cash.amount, currency: cash.currency,
                                         categoryId: try cash.category.map { try identities.localId(CategorySync.self, gid: $0, field: "cash.category") },
                                         notes: cash.notes, date: trade.date),
                &context, kept: KeptAmounts(walletAmount: cash.walletAmount, baseAmount: cash.baseAmount, conversion: cash.conversion, baseConversion: cash.baseConversion,
                                            createdAt: cash.createdAt, updatedAt: cash.updatedAt),
                trade: (trade.id ?? 0, [.buy, .sell].contains(fields.kind)))
            try writer.finish()
            let record = try TransactionHandlers.fetch(db, id: cashId)
            let walletCurrency = try InputRules.currency(try WalletRow.find(db, id: walletId).record.currency, field: field)
            // The cash columns only: the replay may have marked the trade unapplied.
            try db.execute(sql: "UPDATE trades SET cash_wallet_id = ?, cash_tx_id = ?, cash_amount_minor = ?, cash_currency = ? WHERE id = ?", arguments: [
                walletId, cashId, try InputRules.amount(record.walletAmount, currency: walletCurrency, field: field).minorUnits, walletCurrency.code, trade.id])
            try context.record(.txCreated, id: String(cashId), data: record)
        }
        let id = trade.id ?? 0
        try context.record(.tradeRecorded, id: String(id), data: try TradeRecords.fetch(db, id: id))
        if let reason = try String.fetchOne(db, sql: "SELECT unapplied FROM trades WHERE id = ?", arguments: [id]) {
            identities.notices.append("a \(fields.kind.rawValue) of \(asset.symbol) on \(trade.date) from another device does not fit the trades before it here (\(reason)): it is kept and marked unapplied; delete it or the trade it clashes with")
        }
        return id
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        _ = try TradeHandlers.remove(id: localId, merging: true, &context)
        return nil
    }

    /// The delete, telling the user of each later trade it leaves the lots unable to take.
    static func delete(localId: Int64, identities: SyncIdentities, _ context: inout WriteContext) throws -> String? {
        let reply = try TradeHandlers.remove(id: localId, merging: true, &context)
        for trade in reply.recomputed where try String.fetchOne(context.db, sql: "SELECT unapplied FROM trades WHERE id = ?", arguments: [trade.id]) != nil {
            identities.notices.append("trade \(localId) was deleted on another device: trade \(trade.id) (\(trade.kind.rawValue) of \(trade.symbol) on \(trade.date)) now takes more than the lots hold and is marked unapplied")
        }
        return nil
    }
}
