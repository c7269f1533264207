import FoundationEssentials
import LedgerlyProtocol

/// A trade as one sentence and as a table row: what `invest buy|sell|dividend|split|transfer|delete`
/// print after the store answers, and what `invest trades` lists.
enum TradeDescription {
    /// "Bought 10 AAPL at 100 USD on 2026-01-02 in Broker: cost 1001.00 USD = 900.90 EUR at 0.90 (trade 3)."
    static func sentence(_ trade: TradeRecord, accounts: [Int64: String] = [:], wallets: [Int64: String] = [:]) -> String {
        func account(_ id: Int64?) -> String { id.map { accounts[$0] ?? "account \($0)" } ?? "" }
        let base = trade.amountBase.map { " = \($0) \(trade.baseCurrency ?? "")" } ?? ""
        let rate = trade.rate.map { " at \($0)" } ?? ""
        let fee = trade.fee.map { $0.allSatisfy { $0 == "0" || $0 == "." } ? "" : ", fee \($0)" } ?? ""
        var text: String
        switch trade.kind {
        case .buy:
            text = "Bought \(trade.quantity ?? "") \(trade.symbol) at \(trade.price ?? "") \(trade.currency)\(fee) on \(trade.date) in \(account(trade.accountId)): "
                + "cost \(cost(trade)) \(trade.currency)\(base)\(rate)"
        case .sell:
            text = "Sold \(trade.quantity ?? "") \(trade.symbol) at \(trade.price ?? "") \(trade.currency)\(fee) on \(trade.date) in \(account(trade.accountId)): "
                + "proceeds \(trade.realised?.proceeds ?? trade.amount ?? "") \(trade.currency)\(base)\(rate)"
            if let realised = trade.realised {
                text += "; gain \(realised.gain) \(trade.baseCurrency ?? "") (price effect \(realised.priceEffect), currency effect \(realised.currencyEffect))"
            }
        case .dividend, .interest, .distribution:
            text = "\(trade.kind.rawValue.capitalized) of \(trade.amount ?? "") \(trade.currency) from \(trade.symbol) on \(trade.date) in \(account(trade.accountId))\(base)\(rate)"
        case .split:
            text = "Split \(trade.symbol) \(trade.ratio ?? "") from \(trade.date), in every account"
        case .transfer:
            text = "Moved \(trade.quantity ?? "") \(trade.symbol) from \(account(trade.accountId)) to \(account(trade.toAccountId)) on \(trade.date)"
        }
        if let cash = trade.cash {
            text += "; \(cash.amount) \(cash.currency) \(trade.kind == .buy ? "from" : "into") \(wallets[cash.walletId] ?? "wallet \(cash.walletId)")"
        }
        if let reason = trade.unapplied {
            text += "; not applied to the lots: \(reason)"
        }
        return text + " (trade \(trade.id))."
    }

    /// A buy's cost in the quote currency (amount plus fee); the record carries the amount and the fee.
    private static func cost(_ trade: TradeRecord) -> String {
        guard let amount = trade.amount else { return "" }
        guard let fee = trade.fee, let sum = DecimalText.sum(amount, fee) else { return amount }
        return sum
    }

    static let columns: [Table.Column] = [
        .init("ID", .right), .init("DATE"), .init("KIND"), .init("ACCOUNT"), .init("SYMBOL"), .init("QUANTITY", .right), .init("PRICE", .right),
        .init("FEE", .right), .init("AMOUNT", .right), .init("CUR"), .init("RATE", .right), .init("BASE", .right), .init("GAIN", .right),
    ]

    static func row(_ trade: TradeRecord, accounts: [Int64: String]) -> [String] {
        let account = trade.accountId.map { accounts[$0] ?? String($0) } ?? "(all)"
        let moved = trade.toAccountId.map { " → " + (accounts[$0] ?? String($0)) } ?? ""
        // A trade the lots leave out (merged by sync) is marked where a glance lands (D312).
        return [String(trade.id), trade.date, trade.kind.rawValue + (trade.unapplied == nil ? "" : " (unapplied)"), account + moved, trade.symbol, trade.quantity ?? trade.ratio ?? "", trade.price ?? "",
                trade.fee ?? "", trade.amount ?? "", trade.currency, trade.rate ?? "", trade.amountBase.map { "\($0) \(trade.baseCurrency ?? "")" } ?? "",
                trade.realised?.gain ?? ""]
    }
}
