import ArgumentParser
import LedgerlyProtocol

/// What `invest buy` and `invest sell` both take. Numbers are options parsed unconditionally, so
/// "-5" reaches the store as a (refused) quantity and the error names `--quantity`, rather than
/// being mistaken for an unknown option.
struct InvestTradeOptions: ParsableArguments {
    @Option(help: "The investment account (id or name).") var account: String
    @Option(parsing: .unconditional, help: "Units, an exact decimal (> 0, at most 18 decimal places).", transform: AmountOptions.decimal) var quantity: String
    @Option(parsing: .unconditional, help: "Price per unit in the asset's quote currency.", transform: AmountOptions.decimal) var price: String
    @Option(parsing: .unconditional, help: "Fee in the quote currency (default 0).", transform: AmountOptions.plain) var fee: String?
    @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?
    @Option(parsing: .unconditional, help: "Units of the account's base currency per unit of the quote currency (default: the active profile's rate that day).", transform: AmountOptions.decimal) var rate: String?
    @Option(help: "Wallet (id or name) the cash moves in: a linked transaction, counted like a transfer.", completion: NameCompletion.wallets) var wallet: String?
    @Option(name: .customLong("cash-amount"), parsing: .unconditional, help: "What moved in the wallet, in its currency (required when it is not the quote currency).", transform: AmountOptions.plain) var cashAmount: String?
    @Option(help: "Free text.") var notes: String?

    var day: String { date ?? Timestamp.today() }

    /// The account, the asset and the wallet named, looked up in this order (an unknown one is
    /// refused naming its option before anything is sent).
    func lookUp(_ symbol: String, gateway: Gateway) throws -> (account: InvestAccountRecord, asset: AssetRecord, wallet: WalletRecord?, names: TradeNames) {
        let account = try gateway.investAccount(self.account)
        let asset = try gateway.asset(symbol)
        let wallet = try self.wallet.map { try gateway.wallet($0) }
        return (account, asset, wallet, TradeNames(accounts: [account.id: account.name], wallets: wallet.map { [$0.id: $0.name] } ?? [:]))
    }
}
