import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest buy`: opens a lot (`invest.trade.buy`).
struct InvestBuyCommand: TradeCommand {
    static let configuration = CommandConfiguration(
        commandName: "buy", abstract: "Record a buy: a new lot costing quantity × price + fee.",
        discussion: """
            The lot's base cost is round(cost × rate), in the account's base currency; the rate is kept with the trade.
            With --wallet the cost leaves that wallet (a linked transaction, counted like a transfer).
            Example: ledgerly invest buy AAPL --account Broker --quantity 10 --price 100 \\
                       --fee 1 --rate 0.90 --date 2026-01-02
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Asset symbol or id.") var symbol: String
    @OptionGroup var trade: InvestTradeOptions

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> Resolved<TradeRecord, TradeNames> {
        let found = try trade.lookUp(symbol, gateway: gateway)
        let bought = try gateway.call(TradeBuyRequest(
            accountId: found.account.id, assetId: found.asset.id, quantity: trade.quantity, price: trade.price, fee: trade.fee, date: trade.day,
            rate: trade.rate, walletId: found.wallet?.id, cashAmount: trade.cashAmount, notes: trade.notes))
        return Resolved(bought, found.names)
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "assetId": "<symbol>", "walletId": "--wallet"]
}
