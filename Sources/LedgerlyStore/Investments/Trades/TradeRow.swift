import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `trades`: the facts the lots and gains are derived from (docs/investments.md). Money
/// is in minor units: `amountMinor` and `feeMinor` of `currency`, `amountBaseMinor` of
/// `baseCurrency`, `cashAmountMinor` of `cashCurrency`.
struct TradeRow: Codable, FetchableRecord, MutablePersistableRecord, Sendable {
    static let databaseTableName = "trades"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64?
    var kind: String
    var accountId: Int64?
    var assetId: Int64
    var date: String
    var quantity: String?
    var price: String?
    var feeMinor: Int64?
    var amountMinor: Int64?
    var currency: String
    var rate: String?
    var amountBaseMinor: Int64?
    var baseCurrency: String?
    var ratio: String?
    var toAccountId: Int64?
    /// The lots a sale or transfer named, as JSON (`[LotSelection]`).
    var lots: String?
    var cashWalletId: Int64?
    var cashTxId: Int64?
    var cashAmountMinor: Int64?
    var cashCurrency: String?
    var notes: String?
    var createdAt: String
    /// Why the lots leave this trade out, when a history merged by sync holds a trade they cannot
    /// take (`TradeReplay`, D312); nil for every trade that counts.
    var unapplied: String? = nil
    /// Orders a day's trades recorded in one millisecond in every replay: for a trade synced
    /// from another device, its local id there; nil for one recorded here (its own id serves).
    var recordedOrder: Int64? = nil

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var tradeKind: TradeKind { TradeKind(rawValue: kind) ?? .buy }

    var selections: [LotSelection]? {
        lots.flatMap { try? MessageCoding.decoder().decode([LotSelection].self, from: Data($0.utf8)) }
    }

    static func find(_ db: Database, id: Int64, field: @autoclosure () -> FieldPath) throws -> TradeRow {
        guard let row = try TradeRow.fetchOne(db, key: id) else {
            throw LedgerError.notFound("there is no trade \(id); see `ledgerly invest trades`", field: field())
        }
        return row
    }

    /// A buy's lot's order among the lots of its day: when and in what order it was recorded,
    /// which travel with a synced trade (`TradeReplay.order`), so FIFO takes the same lot on
    /// every device. The same text `lots.lot_order` gets in migration v19.
    var lotOrder: String {
        let order = String(recordedOrder ?? id ?? 0)
        return "\(createdAt)#\(String(repeating: "0", count: max(0, 20 - order.count)))\(order)"
    }

    /// The trade as the lot book replays it; nil for income, which changes no lot.
    func bookTrade() throws -> LotBook.Trade? {
        let id = self.id ?? 0
        func quantityValue() throws -> Quantity {
            guard let quantity else { throw LedgerError.broken("trade \(id) has no quantity") }
            return try Quantity(stored: quantity)
        }
        let picks = try selections?.map { LotBook.Pick(lotId: $0.lotId, quantity: try Quantity(stored: $0.quantity)) }
        let account = accountId ?? 0
        switch tradeKind {
        case .buy:
            return .init(id: id, accountId: account, date: date, action: .buy(quantity: try quantityValue(), cost: (amountMinor ?? 0) + (feeMinor ?? 0), costBase: amountBaseMinor ?? 0),
                         order: lotOrder)
        case .sell:
            guard let rate, let exchangeRate = try? ExchangeRate(stored: rate) else { throw LedgerError.broken("sale \(id) has no rate") }
            return .init(id: id, accountId: account, date: date, action: .sell(
                quantity: try quantityValue(), proceeds: (amountMinor ?? 0) - (feeMinor ?? 0), proceedsBase: amountBaseMinor ?? 0, rate: exchangeRate, picks: picks))
        case .split:
            guard let ratio, let parsed = TradeRules.ratio(ratio) else { throw LedgerError.broken("split \(id) has no ratio") }
            return .init(id: id, accountId: 0, date: date, action: .split(new: parsed.new, old: parsed.old))
        case .transfer:
            return .init(id: id, accountId: account, date: date, action: .transfer(toAccountId: toAccountId ?? 0, quantity: try quantityValue(), picks: picks))
        case .dividend, .interest, .distribution:
            return nil
        }
    }

    /// The wire record; `realised`: a sale's summed realisations.
    func record(symbol: String, realised: RealisedGain?) -> TradeRecord {
        let exponent = CurrencyCatalog.exponent(for: currency)
        let format = { (minor: Int64?) in minor.map { Money.format(minorUnits: $0, exponent: exponent) } }
        let cash = cashWalletId.flatMap { wallet in
            cashTxId.map { TradeCash(walletId: wallet, transactionId: $0, amount: Money.format(minorUnits: cashAmountMinor ?? 0, exponent: CurrencyCatalog.exponent(for: cashCurrency ?? currency)), currency: cashCurrency ?? currency) }
        }
        return TradeRecord(
            id: id ?? 0, kind: tradeKind, accountId: accountId, assetId: assetId, symbol: symbol, date: date, quantity: quantity, price: price,
            fee: format(feeMinor), amount: format(amountMinor), currency: currency, rate: rate,
            amountBase: amountBaseMinor.map { Money.format(minorUnits: $0, exponent: CurrencyCatalog.exponent(for: baseCurrency ?? currency)) },
            baseCurrency: baseCurrency, ratio: ratio, toAccountId: toAccountId, lots: selections, cash: cash, realised: realised, unapplied: unapplied, notes: notes, createdAt: createdAt)
    }
}

// MARK: Statements over `trades`

extension TradeRow {
    /// The order trades are replayed in, as SQL (D312; `TradeReplay`).
    static let replayOrder = "date, created_at, coalesce(recorded_order, id), id"

    static func exists(_ db: Database, id: Int64) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM trades WHERE id = ?)", arguments: [id]) == true
    }

    /// Whether the asset has any trade.
    static func exists(_ db: Database, assetId: Int64?) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM trades WHERE asset_id = ?)", arguments: [assetId]) == true
    }

    static func assetId(_ db: Database, id: Int64) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT asset_id FROM trades WHERE id = ?", arguments: [id])
    }

    /// The assets an account has traded or received by a transfer.
    static func assetIds(_ db: Database, accountId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT DISTINCT asset_id FROM trades WHERE account_id = ? OR to_account_id = ?", arguments: [accountId, accountId])
    }

    /// The assets traded in, or moved into, an account that takes lots by average cost, by id
    /// (`AverageCostRepair`).
    static func assetIdsInAverageCostAccounts(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT DISTINCT t.asset_id FROM trades t JOIN invest_accounts a ON a.id IN (t.account_id, t.to_account_id)
            WHERE a.cost_basis_method = 'average' ORDER BY t.asset_id
            """)
    }

    /// The highest id a trade has now; 0 for none.
    static func highestId(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM trades") ?? 0
    }

    /// The highest id the table ever gave (it never gives one twice: AUTOINCREMENT); 0 for none.
    static func highestIdEverGiven(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'trades'") ?? 0
    }

    /// Every trade of an asset in the order they are replayed.
    static func ofAsset(_ db: Database, assetId: Int64) throws -> [TradeRow] {
        try TradeRow.fetchAll(db, sql: "SELECT * FROM trades WHERE asset_id = ? ORDER BY \(replayOrder)", arguments: [assetId])
    }

    /// The trades matching the conditions (SQL over `trades`' columns with their arguments; none:
    /// every trade), in the order they are replayed.
    static func matching(_ db: Database, conditions: [String], arguments: StatementArguments) throws -> [TradeRow] {
        try TradeRow.fetchAll(db, sql: "SELECT * FROM trades \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")) ORDER BY \(replayOrder)",
                              arguments: arguments)
    }

    /// An account's trades of one kind, asset and day with an id up to `maxId`.
    static func sameDay(_ db: Database, accountId: Int64, assetId: Int64, kind: String, date: String, maxId: Int64) throws -> [TradeRow] {
        try TradeRow.fetchAll(db, sql: "SELECT * FROM trades WHERE account_id = ? AND asset_id = ? AND kind = ? AND date = ? AND id <= ?",
                              arguments: [accountId, assetId, kind, date, maxId])
    }

    /// Whether a trade that changes lots comes after this one in replay order.
    func hasLaterLotTrade(_ db: Database) throws -> Bool {
        let id = self.id ?? 0
        return try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM trades WHERE asset_id = ? AND kind NOT IN ('dividend', 'interest', 'distribution')
                           AND (date, created_at, coalesce(recorded_order, id), id) > (?, ?, ?, ?))
            """, arguments: [assetId, date, createdAt, recordedOrder ?? id, id]) ?? false
    }

    /// Every trade up to `day` that changes units and counts, by asset, then replay order.
    static func countedUpTo(_ db: Database, day: String) throws -> [TradeRow] {
        try TradeRow.fetchAll(db, sql: """
            SELECT * FROM trades WHERE date <= ? AND kind NOT IN ('dividend', 'interest', 'distribution') AND unapplied IS NULL ORDER BY asset_id, \(replayOrder)
            """, arguments: [day])
    }

    /// Marks a trade left out of the lots, with why, or counted again (nil).
    static func setUnapplied(_ db: Database, id: Int64?, reason: String?) throws {
        try db.execute(sql: "UPDATE trades SET unapplied = ? WHERE id = ?", arguments: [reason, id])
    }

    /// The trades of an asset the lots leave out, with why.
    static func unappliedReasons(_ db: Database, assetId: Int64) throws -> [Int64: String] {
        var marked: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, unapplied FROM trades WHERE asset_id = ? AND unapplied IS NOT NULL", arguments: [assetId]) {
            marked[row[0]] = row[1]
        }
        return marked
    }

    /// Sets a trade's cash columns only (the replay may have marked the trade unapplied since it
    /// was read).
    static func setCash(_ db: Database, id: Int64?, walletId: Int64, transactionId: Int64, amountMinor: Int64, currency: String) throws {
        try db.execute(sql: "UPDATE trades SET cash_wallet_id = ?, cash_tx_id = ?, cash_amount_minor = ?, cash_currency = ? WHERE id = ?",
                       arguments: [walletId, transactionId, amountMinor, currency, id])
    }

    static func delete(_ db: Database, id: Int64) throws {
        try db.execute(sql: "DELETE FROM trades WHERE id = ?", arguments: [id])
    }

    /// Income (dividends, interest, distributions) in each base currency, of the trades matching
    /// `conditions` (SQL over `trades`' columns with their arguments): `invest.gains`' totals.
    static func incomeByBaseCurrency(_ db: Database, conditions: [String], arguments: StatementArguments) throws -> [String: Int64] {
        let conditions = ["kind IN ('dividend', 'interest', 'distribution')"] + conditions
        var income: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT base_currency, sum(amount_base_minor) FROM trades WHERE \(conditions.joined(separator: " AND ")) GROUP BY base_currency",
                                    arguments: arguments) {
            income[row[0], default: 0] += row[1] as Int64
        }
        return income
    }
}
