import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.restore`: an export's investments back under their ids, with the figures they were
/// recorded with; lots and gains are derived again, never read from the file.
enum InvestRestoreHandler {
    static func restore(_ request: InvestRestoreRequest, _ context: inout WriteContext) throws -> InvestRestoreReply {
        let db = context.db
        guard try InvestAccountRow.all().isEmpty(db), try AssetRow.all().isEmpty(db), try TradeRow.all().isEmpty(db) else {
            throw LedgerError.conflict("the ledger already has investments: restore into a new ledger", field: .wholeBody)
        }
        let data = request.investments
        let field = FieldPath.body("investments")
        for (index, account) in data.accounts.enumerated() {
            var row = InvestAccountRow(
                id: account.id, name: try InputRules.name(account.name, field: field.member("accounts")[index].member("name")), broker: account.broker,
                accountType: account.accountType.rawValue, baseCurrency: try InputRules.currency(account.baseCurrency, field: field.member("accounts")[index].member("baseCurrency")).code,
                costBasisMethod: account.costBasisMethod.rawValue, includeInNetWorth: account.includeInNetWorth, archived: account.archived,
                createdAt: account.createdAt, updatedAt: account.updatedAt)
            try row.insert(db)
        }
        for (index, asset) in data.assets.enumerated() {
            var row = AssetRow(
                id: asset.id, symbol: try AssetHandlers.symbolText(asset.symbol, field: field.member("assets")[index].member("symbol")), assetType: asset.assetType.rawValue,
                name: asset.name, exchange: asset.exchange, quoteCurrency: try InputRules.currency(asset.quoteCurrency, field: field.member("assets")[index].member("quoteCurrency")).code,
                provider: asset.provider.rawValue, providerId: asset.providerId, allocationGroup: asset.allocationGroup, watched: asset.watched,
                createdAt: asset.createdAt, updatedAt: asset.updatedAt)
            try row.insert(db)
        }
        for (index, trade) in data.trades.enumerated() {
            let at = field.member("trades")[index]
            var row = try self.row(trade, field: at)
            try row.insert(db)
            if let cash = trade.cash {
                // The cash was restored as a transaction under its id; it belongs to the trade again,
                // and a buy's or sale's cash leaves income and spending as it did.
                guard try TransactionRow.exists(db, id: cash.transactionId) else {
                    throw LedgerError.invalid("trade \(trade.id)'s cash transaction \(cash.transactionId) is not in the ledger", field: at.member("cash").member("transactionId"))
                }
                try LedgerTotals.apply(db, ids: [cash.transactionId], sign: -1)
                try TransactionRow.makeTradeCash(db, id: cash.transactionId, tradeId: trade.id, transfer: trade.kind == .buy || trade.kind == .sell)
                try LedgerTotals.apply(db, ids: [cash.transactionId], sign: 1)
            }
        }
        // An export of a ledger merged by sync may hold trades the lots leave out: they are left
        // out again (and marked), as on the device that wrote it.
        for asset in data.assets { try TradeReplay.replay(db, assetId: asset.id, field: field.member("trades"), merging: true) }
        for (index, price) in data.prices.enumerated() {
            _ = try TradeRules.price(price.price, field: field.member("prices")[index].member("price"))
            var row = PriceSnapshotRow(id: nil, assetId: price.assetId, price: price.price, currency: price.currency, source: price.source, asOf: price.asOf,
                                       confidence: price.confidence.rawValue, recordedAt: price.recordedAt)
            try row.insert(db)
        }
        for (index, target) in data.targets.enumerated() {
            let percent = try AllocationHandlers.percent(target.percent, field: field.member("targets")[index].member("percent"))
            try AllocationTargetRow(dimension: target.dimension.rawValue, key: target.key, percent: AllocationHandlers.percentText(percent)).insert(db)
        }
        return InvestRestoreReply(accounts: data.accounts.count, assets: data.assets.count, trades: data.trades.count, prices: data.prices.count, targets: data.targets.count)
    }

    /// A trade's row from its record: the decimal strings back to minor units of their currencies.
    private static func row(_ trade: TradeRecord, field: FieldPath) throws -> TradeRow {
        let currency = try InputRules.currency(trade.currency, field: field.member("currency"))
        let base = try trade.baseCurrency.map { try InputRules.currency($0, field: field.member("baseCurrency")) }
        let minor = { (text: String?, currency: Currency?, name: String) throws -> Int64? in
            guard let text, let currency else { return nil }
            return try InputRules.amount(text, currency: currency, field: field.member(name)).minorUnits
        }
        let cashCurrency = try trade.cash.map { try InputRules.currency($0.currency, field: field.member("cash").member("currency")) }
        return TradeRow(
            id: trade.id, kind: trade.kind.rawValue, accountId: trade.accountId, assetId: trade.assetId, date: trade.date,
            quantity: try trade.quantity.map { try Quantity(stored: $0).description }, price: try trade.price.map { try TradeRules.price($0, field: field.member("price")).decimalString },
            feeMinor: try minor(trade.fee, currency, "fee"), amountMinor: try minor(trade.amount, currency, "amount"), currency: currency.code, rate: trade.rate,
            amountBaseMinor: try minor(trade.amountBase, base, "amountBase"), baseCurrency: base?.code, ratio: trade.ratio, toAccountId: trade.toAccountId,
            lots: try trade.lots.map { String(decoding: try MessageCoding.encode($0), as: UTF8.self) }, cashWalletId: trade.cash?.walletId,
            cashTxId: trade.cash?.transactionId, cashAmountMinor: try minor(trade.cash?.amount, cashCurrency, "cash"), cashCurrency: cashCurrency?.code,
            notes: trade.notes, createdAt: trade.createdAt)
    }
}
