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
        /// Orders trades of one day recorded in the same millisecond (a broker file's lines) in
        /// every replay: the local id of the device that recorded the trade.
        var order: Int64?
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        try scan(table: TradeRow.databaseTableName, db, after: after, limit: limit)
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
            lots: try trade.selections?.enumerated().map { position, lot in
                Lot(lot: try lotGid(lot.lotId, position: position, saleId: id, identities: identities), quantity: lot.quantity)
            },
            cash: cash, notes: trade.notes, createdAt: trade.createdAt, order: trade.recordedOrder ?? id))
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        try checkShape(fields)
        let assetId = try identities.localId(SecuritySync.self, gid: fields.security, field: "security")
        let asset = try AssetRow.find(db, id: assetId, field: field)
        let income = [.dividend, .interest, .distribution].contains(fields.kind)
        // Income is in the wallet's currency; every other trade in the security's quote currency.
        guard income || fields.currency == asset.quoteCurrency else {
            throw LedgerError.invalid("a synced trade of \(asset.symbol) is in \(fields.currency), but it is quoted in \(asset.quoteCurrency) here", field: field)
        }
        let currency = try InputRules.currency(fields.currency, field: field)
        let base = try fields.baseCurrency.map { try InputRules.currency($0, field: field) }
        let minor = { (text: String?, currency: Currency) throws -> Int64? in
            guard let text else { return nil }
            return try InputRules.amount(text, currency: currency, field: field).minorUnits
        }
        var trade = TradeRow(
            id: nil, kind: fields.kind.rawValue, accountId: try fields.account.map { try identities.localId(InvestAccountSync.self, gid: $0, field: "account") },
            assetId: assetId, date: try InputRules.date(fields.date, field: field).description,
            quantity: try fields.quantity.map { try TradeRules.quantity($0, field: field).description },
            price: try fields.price.map { try TradeRules.price($0, field: field).decimalString },
            feeMinor: try minor(fields.fee, currency), amountMinor: try minor(fields.amount, currency), currency: currency.code,
            rate: try fields.rate.map { try TradeRules.price($0, field: field).decimalString }, amountBaseMinor: try minor(fields.amountBase, base ?? currency),
            baseCurrency: base?.code, ratio: fields.ratio,
            toAccountId: try fields.toAccount.map { try identities.localId(InvestAccountSync.self, gid: $0, field: "toAccount") },
            lots: nil, cashWalletId: nil, cashTxId: nil, cashAmountMinor: nil, cashCurrency: nil,
            notes: try InputRules.optionalText(fields.notes, field: field), createdAt: try InputRules.timestamp(fields.createdAt, field: field),
            recordedOrder: fields.order)
        if let lots = fields.lots {
            let picks = try lots.map { LotSelection(lotId: try lotId($0.lot, identities: identities), quantity: $0.quantity) }
            trade.lots = try TradeHandlers.selections(picks, quantity: fields.quantity ?? "", field: { _ in field })
        }
        let before = try unapplied(db, assetId: assetId)
        // A changed trade (never edited, so only a repair) is the old one gone and this one made.
        if let localId { _ = try TradeHandlers.remove(id: localId, merging: true, &context) }
        trade.id = try localId ?? (try SyncNames.freeId(try neverUsed(idHint, db), table: TradeRow.databaseTableName, db))
        try trade.insert(db)
        // Income moves no lot: nothing to replay, as for a local one.
        if !income { try TradeReplay.record(db, trade: trade, field: field, merging: true) }
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
            try TradeRow.setCash(db, id: trade.id, walletId: walletId, transactionId: cashId,
                                 amountMinor: try InputRules.amount(record.walletAmount, currency: walletCurrency, field: field).minorUnits, currency: walletCurrency.code)
            try context.record(.txCreated, id: String(cashId), data: record)
        }
        let id = trade.id ?? 0
        try context.record(.tradeRecorded, id: String(id), data: try TradeRecords.fetch(db, id: id))
        try tellNewlyUnapplied(db, assetId: assetId, before: before, cause: "a \(fields.kind.rawValue) of \(asset.symbol) on \(trade.date) arrived from another device", identities: identities)
        return id
    }

    /// The fields each kind must have, so that a malformed message is refused here (and left
    /// out with a notice) rather than found broken by the replay.
    private static func checkShape(_ fields: Fields) throws {
        let missing: [String]
        switch fields.kind {
        case .buy: missing = [("account", fields.account), ("quantity", fields.quantity), ("price", fields.price), ("amount", fields.amount)].filter { $0.1 == nil }.map(\.0)
        case .sell: missing = [("account", fields.account), ("quantity", fields.quantity), ("price", fields.price), ("amount", fields.amount), ("rate", fields.rate)].filter { $0.1 == nil }.map(\.0)
        case .dividend, .interest, .distribution: missing = [("account", fields.account), ("amount", fields.amount)].filter { $0.1 == nil }.map(\.0)
        case .split:
            missing = fields.ratio == nil ? ["ratio"] : []
            if let ratio = fields.ratio, TradeRules.ratio(ratio) == nil {
                throw LedgerError.invalid("a synced split has the ratio '\(ratio)', which is not one", field: .body("messages"))
            }
        case .transfer: missing = [("account", fields.account), ("toAccount", fields.toAccount), ("quantity", fields.quantity)].filter { $0.1 == nil }.map(\.0)
        }
        guard missing.isEmpty else {
            throw LedgerError.invalid("a synced \(fields.kind.rawValue) has no \(missing.joined(separator: ", "))", field: .body("messages"))
        }
    }

    /// The id hint when no trade here ever had it: a lot is known by its buy's id, and a sale left
    /// out because its buy was deleted here still names that id, so a new trade under it would
    /// quietly become that sale's lot. (`trades` never hands an id out twice itself.)
    private static func neverUsed(_ hint: Int64?, _ db: Database) throws -> Int64? {
        let highest = try TradeRow.highestIdEverGiven(db)
        return hint.flatMap { $0 > highest ? $0 : nil }
    }

    /// The local id of a named lot's buying trade. A buy deleted here (its tombstone came first)
    /// is lot 0, which no trade has: the lots cannot take the sale, which is kept unapplied, as
    /// on the device where the delete arrived after it.
    private static func lotId(_ gid: String, identities: SyncIdentities) throws -> Int64 {
        if gid == goneLot { return 0 }
        if let known = try SyncIdentityRow.find(identities.db, entity: entity, gid: gid), known.deleted { return 0 }
        return try identities.localId(TradeSync.self, gid: gid, field: "lots")
    }

    /// The global id of a lot a sale names: its buying trade's; for a buy deleted since, the
    /// one the sale was last sent or received with.
    private static func lotGid(_ lotId: Int64, position: Int, saleId: Int64, identities: SyncIdentities) throws -> String {
        let db = identities.db
        if try TradeRow.exists(db, id: lotId) {
            return try identities.gid(TradeSync.self, localId: lotId)
        }
        guard let sent = try SyncIdentityRow.find(db, entity: entity, localId: saleId),
              case .array(let lots)? = sent.fields["lots"], lots.indices.contains(position),
              case .object(let lot) = lots[position], case .string(let gid)? = lot["lot"] else {
            // Gone before it was ever synced (a restored export of a ledger that held the sale
            // unapplied): no device has it, and every device leaves the sale out alike.
            return goneLot
        }
        return gid
    }

    /// The lot a sale names when its buy is gone and no global id is known for it.
    static let goneLot = "gone"

    /// The trades of an asset the lots leave out, with why.
    static func unapplied(_ db: Database, assetId: Int64) throws -> [Int64: String] {
        try TradeRow.unappliedReasons(db, assetId: assetId)
    }

    /// A notice for each trade of the asset the lots leave out now and did not before: the one
    /// that arrived, or one of this device's that an earlier trade arriving displaced.
    static func tellNewlyUnapplied(_ db: Database, assetId: Int64, before: [Int64: String], cause: String, identities: SyncIdentities) throws {
        for (id, reason) in try unapplied(db, assetId: assetId).sorted(by: { $0.key < $1.key }) where before[id] == nil {
            guard let trade = try TradeRow.fetchOne(db, key: id) else { continue }
            let symbol = try TradeRecords.symbol(db, assetId: assetId)
            identities.notices.append("\(cause): trade \(id) (\(trade.kind) of \(trade.quantity ?? "") \(symbol) on \(trade.date)) no longer fits the trades before it (\(reason)); it is kept and marked unapplied: delete it or the trade it clashes with")
        }
    }

    /// What the protocol requires; `sync.apply` calls the delete below, which tells the user more.
    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        _ = try TradeHandlers.remove(id: localId, merging: true, &context)
        return nil
    }

    /// The delete, telling the user of each later trade it leaves the lots unable to take.
    static func delete(localId: Int64, identities: SyncIdentities, _ context: inout WriteContext) throws -> String? {
        guard let assetId = try TradeRow.assetId(context.db, id: localId) else { return nil }
        let before = try unapplied(context.db, assetId: assetId)
        _ = try TradeHandlers.remove(id: localId, merging: true, &context)
        try tellNewlyUnapplied(context.db, assetId: assetId, before: before, cause: "trade \(localId) was deleted on another device", identities: identities)
        return nil
    }
}
