import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest buy`: opens a lot (`invest.trade.buy`).
struct InvestBuyCommand: ParsableCommand {
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

    func run() throws {
        try CommandRunner.run {
            let gateway = try Gateway(global, wording: Self.wording)
            let account = try gateway.investAccount(trade.account)
            let asset = try gateway.asset(symbol)
            let wallet = try trade.wallet.map { try gateway.wallet($0) }
            let bought = try gateway.call(TradeBuyRequest(
                accountId: account.id, assetId: asset.id, quantity: trade.quantity, price: trade.price, fee: trade.fee, date: trade.day,
                rate: trade.rate, walletId: wallet?.id, cashAmount: trade.cashAmount, notes: trade.notes))
            if output.json { return try JSONOutput.print(bought) }
            print(TradeDescription.sentence(bought, accounts: [account.id: account.name], wallets: wallet.map { [$0.id: $0.name] } ?? [:]))
        }
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "assetId": "<symbol>", "walletId": "--wallet"]
}
