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
