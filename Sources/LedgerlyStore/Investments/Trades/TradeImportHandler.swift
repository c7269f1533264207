import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.trade.import`: a broker's trades into one account, all or nothing, in file order.
/// A line equal to a trade recorded before the file (kind, asset, date, quantity, price and fee,
/// or amount for income) is a duplicate and skipped.
/// Each line goes through the same handler as the message of its kind, so it is checked and
/// computed exactly as a typed trade; a refusal names the line (`body.lines[3].price`).
enum TradeImportHandler {
    static let maximumLines = 10_000

    static func importTrades(_ request: TradeImportRequest, _ context: inout WriteContext) throws -> TradeImportReply {
        let db = context.db
        guard request.lines.count <= maximumLines else {
            throw LedgerError.invalid("body.lines holds \(request.lines.count) lines; send at most \(maximumLines) per request", field: .body("lines"))
        }
        let account = try InvestAccountRow.active(db, id: request.accountId, field: .body("accountId"))
        let dryRun = request.dryRun == true
        // A dry run works on a copy of the context, in a savepoint rolled back at the end: every
        // check runs, nothing stays, no event is published.
        var scratch = context
        // Duplicates are lines equal to a trade recorded before this file: two equal lines in one
        // file are two fills, both kept.
        let existing = try TradeRow.highestId(db)
        var duplicates: [Int] = []
        var ids: [Int64] = []
        try db.inSavepoint {
            for (index, line) in request.lines.enumerated() {
                let field = FieldPath.body("lines")[index]
                let assetId = try asset(db, symbol: line.symbol, field: field.member("symbol"))
                if try isDuplicate(db, line, accountId: account.id ?? 0, assetId: assetId, before: existing) {
                    duplicates.append(line.line)
                    continue
                }
                do {
                    ids.append(try apply(line, accountId: account.id ?? 0, assetId: assetId, walletId: request.walletId, &scratch).id)
                } catch let refusal as LedgerError {
                    throw refusal.moved(to: lineField(refusal.field, line: field), reason: "line \(line.line): \(refusal.reason)")
                }
            }
            return dryRun ? .rollback : .commit
        }
        let reply = TradeImportReply(imported: ids.count, duplicates: duplicates, dryRun: dryRun, tradeIds: dryRun ? [] : ids)
        if !dryRun {
            context = scratch
            if !ids.isEmpty { try context.record(.tradesImported, id: String(account.id ?? 0), data: reply) }
        }
        return reply
    }

    private static func apply(_ line: TradeImportLine, accountId: Int64, assetId: Int64, walletId: Int64?, _ context: inout WriteContext) throws -> TradeRecord {
        switch line.kind {
        case .buy:
            return try TradeHandlers.buy(TradeBuyRequest(accountId: accountId, assetId: assetId, quantity: line.quantity ?? "", price: line.price ?? "", fee: line.fee,
                                                         date: line.date, rate: line.rate, notes: line.notes), &context)
        case .sell:
            return try TradeHandlers.sell(TradeSellRequest(accountId: accountId, assetId: assetId, quantity: line.quantity ?? "", price: line.price ?? "", fee: line.fee,
                                                           date: line.date, rate: line.rate, notes: line.notes), &context)
        case .dividend, .interest, .distribution:
            guard let walletId else {
                throw LedgerError.invalid("an income line needs a wallet to be paid into: give body.walletId", field: .body("walletId"))
            }
            return try TradeHandlers.income(TradeIncomeRequest(kind: line.kind, accountId: accountId, assetId: assetId, amount: line.amount ?? "", date: line.date,
                                                               walletId: walletId, rate: line.rate, notes: line.notes), &context)
        case .split, .transfer:
            throw LedgerError.invalid("a broker file holds buys, sales and income; record a \(line.kind.rawValue) with its own command", field: .body("kind"))
        }
    }

    /// A refusal's field moved onto the line: `body.price` → `body.lines[3].price`; the
    /// request-wide fields (account, wallet) stay where they are.
    private static func lineField(_ field: FieldPath?, line: FieldPath) -> FieldPath? {
        guard let field, let member = field.wire.split(separator: ".").last.map(String.init), field.wire.hasPrefix("body.") else { return line }
        if ["accountId", "walletId"].contains(member) { return field }
        return line.member(member == "assetId" ? "symbol" : member)
    }

    private static func asset(_ db: Database, symbol: String, field: FieldPath) throws -> Int64 {
        guard let id = try AssetRow.id(symbol: symbol, db) else {
            throw LedgerError.notFound("there is no asset '\(symbol)'; add it with `ledgerly invest asset add \(symbol) …`", field: field)
        }
        return id
    }

    /// The same kind, asset, date, quantity, price, fee and amount as a trade already in the account.
    private static func isDuplicate(_ db: Database, _ line: TradeImportLine, accountId: Int64, assetId: Int64, before existing: Int64) throws -> Bool {
        let candidates = try TradeRow.sameDay(db, accountId: accountId, assetId: assetId, kind: line.kind.rawValue, date: line.date, maxId: existing)
        for trade in candidates {
            let record = trade.record(symbol: line.symbol, realised: nil)
            let sameQuantity = line.quantity.flatMap { try? Quantity(parsing: $0) }.map(\.description) == record.quantity
            let samePrice = line.price.flatMap { try? ExchangeRate(parsing: $0) }?.value == record.price.flatMap { try? ExchangeRate(stored: $0) }?.value
            let currency = try? Currency(code: trade.currency)
            let money = { (text: String?) in text.flatMap { value in currency.flatMap { try? Money(parsing: value, currency: $0).minorUnits } } }
            switch line.kind {
            case .buy, .sell:
                if sameQuantity && samePrice && (money(line.fee) ?? 0) == (trade.feeMinor ?? 0) { return true }
            default:
                if money(line.amount) == trade.amountMinor { return true }
            }
        }
        return false
    }
}
