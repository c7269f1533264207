import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest sell`: consumes lots by the account's method or the ones named
/// (`invest.trade.sell`), and prints the gain realised.
struct InvestSellCommand: TradeCommand {
    static let configuration = CommandConfiguration(
        commandName: "sell", abstract: "Record a sale: lots by the account's method (fifo, lifo, average), or the ones you name.",
        discussion: """
            Proceeds are quantity × price − fee; base proceeds round(proceeds × rate). --lot ID:QTY (repeatable) takes \
            QTY units of lot ID (`ledgerly invest holdings --lots` lists them); the lots must add up to --quantity.
            With --wallet the proceeds reach that wallet (a linked transaction, counted like a transfer).
            Example: ledgerly invest sell AAPL --account Broker --quantity 8 --price 130 \\
                       --fee 1 --rate 0.92 --lot 1:8
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Asset symbol or id.") var symbol: String
    @OptionGroup var trade: InvestTradeOptions
    @Option(name: .customLong("lot"), help: ArgumentHelp("Take QTY units of lot ID (repeatable).", valueName: "id:qty")) var lots: [LotArgument] = []

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> Resolved<TradeRecord, TradeNames> {
        let found = try trade.lookUp(symbol, gateway: gateway)
        let sold = try gateway.call(TradeSellRequest(
            accountId: found.account.id, assetId: found.asset.id, quantity: trade.quantity, price: trade.price, fee: trade.fee, date: trade.day,
            rate: trade.rate, walletId: found.wallet?.id, cashAmount: trade.cashAmount,
            lots: lots.isEmpty ? nil : lots.map(\.selection), notes: trade.notes))
        return Resolved(sold, found.names)
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "assetId": "<symbol>", "walletId": "--wallet", "lots": "--lot"]
}
