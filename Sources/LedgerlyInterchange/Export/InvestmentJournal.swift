import LedgerlyCore
import LedgerlyProtocol

/// Writes an export's investment trades as journal entries that hledger reads: each account's
/// holding of an asset is the account `assets:investments:<account>:<symbol>`, holding units of
/// the asset's symbol as a commodity, each posting priced at what the units cost (`@@`), so
/// `hledger bal` shows the quantities and `hledger bal -B` the cost basis Ledgerly keeps.
///
/// - A buy posts the units at their cost against the wallet that paid (the cash transaction is
///   then not written again), else against `equity:investments:contributions`.
/// - A sale posts the units sold at the cost of the lots it took, the proceeds to the wallet (or
///   `equity:investments:withdrawals`), and the difference to `income:investments:gains`, all in
///   the asset's currency.
/// - A split posts the new units at no cost; a transfer moves units at their lots' cost.
/// - Income trades are their cash transactions, already written.
///
/// The lots are replayed with `LotBook`, as the store does, for the cost of what moved.
public struct InvestmentJournal: Sendable {
    private let investments: InvestmentRestore
    private let accounts: [Int64: InvestAccountRecord]
    private let assets: [Int64: AssetRecord]

    public init(_ investments: InvestmentRestore) {
        self.investments = investments
        self.accounts = Dictionary(investments.accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.assets = Dictionary(investments.assets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The cash transactions of buys and sales: the trades' entries stand for them.
    public var replacedTransactionIds: Set<Int64> {
        Set(investments.trades.filter { $0.kind == .buy || $0.kind == .sell }.compactMap { $0.cash?.transactionId })
    }

    static let contributions = "equity:investments:contributions"
    static let withdrawals = "equity:investments:withdrawals"
    static let gains = "income:investments:gains"
    static let splits = "equity:investments:splits"

    /// Directives for the accounts and commodities it uses, and one entry per buy, sale, split
    /// and transfer, added to `dated` to be written among the transactions by date. `writer`
    /// names a wallet's account as the journal does and declares what is new.
    public func entries(declaringWith writer: inout JournalWriter, into dated: inout DatedEntries) {
        guard !investments.trades.isEmpty || !investments.assets.isEmpty else { return }
        var directives = writer.declare(commodities: investments.assets.map(\.symbol), accounts: [Self.contributions, Self.withdrawals, Self.gains, Self.splits])
        for assetId in Set(investments.trades.map(\.assetId)).sorted() {
            guard let asset = assets[assetId] else { continue }
            let trades = investments.trades.filter { $0.assetId == assetId }.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
            var book = LotBook(method: { accounts[$0]?.costBasisMethod ?? .fifo }, toBase: { _, _, _ in 0 })
            for trade in trades {
                guard let step = Self.step(trade) else { continue }
                let before = book.lots
                do {
                    try book.apply(step)
                } catch {
                    dated.add(date: trade.date, text: "; ledgerly: trade \(trade.id) left out: \(error.description)\n\n")
                    continue
                }
                guard let entry = self.entry(trade, asset: asset, before: before, after: book, walletAccount: writer.walletAccount) else { continue }
                let prepared = writer.prepare(entry)
                directives += prepared.directives
                dated.add(date: trade.date, text: prepared.text)
            }
        }
        dated.addDirectives("; Investments: units at cost (hledger bal -B shows the cost basis)\n" + directives + "\n")
    }

    private func holdingAccount(_ accountId: Int64, _ asset: AssetRecord) -> String {
        "assets:investments:\(JournalSyntax.accountPart(accounts[accountId]?.name ?? "account \(accountId)")):\(JournalSyntax.accountPart(asset.symbol))"
    }

    private static func step(_ trade: TradeRecord) -> LotBook.Trade? {
        let quantity = trade.quantity.flatMap { try? Quantity(stored: $0) }
        let picks = trade.lots?.compactMap { lot in (try? Quantity(stored: lot.quantity)).map { LotBook.Pick(lotId: lot.lotId, quantity: $0) } }
        switch trade.kind {
        case .buy:
            guard let quantity else { return nil }
            return .init(id: trade.id, accountId: trade.accountId ?? 0, date: trade.date, action: .buy(quantity: quantity, cost: 0, costBase: 0))
        case .sell:
            guard let quantity else { return nil }
            return .init(id: trade.id, accountId: trade.accountId ?? 0, date: trade.date, action: .sell(quantity: quantity, proceeds: 0, proceedsBase: 0, rate: .one, picks: picks))
        case .split:
            let parts = (trade.ratio ?? "").split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2 else { return nil }
            return .init(id: trade.id, accountId: 0, date: trade.date, action: .split(new: parts[0], old: parts[1]))
        case .transfer:
            guard let quantity, let to = trade.toAccountId else { return nil }
            return .init(id: trade.id, accountId: trade.accountId ?? 0, date: trade.date, action: .transfer(toAccountId: to, quantity: quantity, picks: picks))
        case .dividend, .interest, .distribution:
            return nil
        }
    }

    /// A trade's entry. Costs come from the trade's own figures (a buy's amount and fee, a sale's
    /// realised cost); quantities from the book.
    private func entry(_ trade: TradeRecord, asset: AssetRecord, before: [LotBook.Lot], after book: LotBook, walletAccount: (Int64) -> String) -> JournalEntry? {
        let currency = trade.currency
        let money = { (text: String?) in text.flatMap { try? JournalAmount(parsing: $0, commodity: currency) } ?? JournalAmount(minorUnits: 0, exponent: CurrencyCatalog.exponent(for: currency), commodity: currency) }
        let symbol = asset.symbol.uppercased()
        let quantity = trade.quantity ?? ""
        var postings: [JournalPosting] = []
        var description = ""
        switch trade.kind {
        case .buy:
            let cost = money(trade.amount).with(minorUnits: money(trade.amount).minorUnits + money(trade.fee).minorUnits)
            description = "Buy \(quantity) \(asset.symbol) @ \(trade.price ?? "") \(currency)"
            postings.append(JournalPosting(holdingAccount(trade.accountId ?? 0, asset), units: quantity, of: symbol, cost: cost))
            postings.append(cashPosting(trade, walletAccount: walletAccount, value: cost.signed(-1), other: Self.contributions))
        case .sell:
            let proceeds = money(trade.amount).with(minorUnits: money(trade.amount).minorUnits - money(trade.fee).minorUnits)
            let cost = money(trade.realised?.cost)
            description = "Sell \(quantity) \(asset.symbol) @ \(trade.price ?? "") \(currency)"
            postings.append(JournalPosting(holdingAccount(trade.accountId ?? 0, asset), units: "-" + quantity, of: symbol, cost: cost))
            postings.append(cashPosting(trade, walletAccount: walletAccount, value: proceeds, other: Self.withdrawals))
            postings.append(JournalPosting(Self.gains, cost.with(minorUnits: cost.minorUnits - proceeds.minorUnits)))
        case .split:
            description = "Split \(asset.symbol) \(trade.ratio ?? "")"
            let zero = money(nil)
            for accountId in Set(book.lots.map(\.accountId)).sorted() {
                let was = before.filter { $0.accountId == accountId }.reduce(Quantity.zero) { $0 + $1.quantity }
                let now = book.lots.filter { $0.accountId == accountId }.reduce(Quantity.zero) { $0 + $1.quantity }
                postings.append(JournalPosting(holdingAccount(accountId, asset), units: "\(now - was)", of: symbol, cost: zero))
            }
            postings.append(JournalPosting(Self.splits, zero))
        case .transfer:
            let from = trade.accountId ?? 0, to = trade.toAccountId ?? 0
            let moved = before.filter { $0.accountId == from }.reduce(0) { $0 + $1.cost } - book.lots.filter { $0.accountId == from }.reduce(0) { $0 + $1.cost }
            let cost = money(nil).with(minorUnits: moved)
            description = "Transfer \(quantity) \(asset.symbol)"
            postings.append(JournalPosting(holdingAccount(to, asset), units: quantity, of: symbol, cost: cost))
            postings.append(JournalPosting(holdingAccount(from, asset), units: "-" + quantity, of: symbol, cost: cost))
        case .dividend, .interest, .distribution:
            return nil
        }
        return JournalEntry(date: trade.date, code: "trade-\(trade.id)", description: JournalSyntax.description(description),
                            metadata: [("ledgerly-trade", String(trade.id))], postings: postings)
    }

    /// The cash side of a buy or sale: the wallet, in its currency at cost in the trade's when
    /// they differ, or the equity account when no wallet was given.
    private func cashPosting(_ trade: TradeRecord, walletAccount: (Int64) -> String, value: JournalAmount, other: String) -> JournalPosting {
        guard let cash = trade.cash, let paid = try? JournalAmount(parsing: cash.amount, commodity: cash.currency) else {
            return JournalPosting(other, value)
        }
        let sign: Int64 = value.minorUnits < 0 ? -1 : 1
        if cash.currency.uppercased() == value.commodity { return JournalPosting(walletAccount(cash.walletId), paid.signed(sign)) }
        return JournalPosting(walletAccount(cash.walletId), paid.signed(sign), cost: value)
    }
}
