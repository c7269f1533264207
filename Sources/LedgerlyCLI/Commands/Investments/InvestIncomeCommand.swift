import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest dividend`: a dividend, interest or distribution paid into a wallet, linked to
/// the asset (`invest.trade.income`), counted as income.
struct InvestIncomeCommand: TradeCommand {
    static let configuration = CommandConfiguration(
        commandName: "dividend", abstract: "Record a dividend (or --kind interest|distribution) paid into a wallet.",
        discussion: """
            The amount is in the wallet's currency and is income in reports and in `ledgerly invest gains`.
            Example: ledgerly invest dividend AAPL --account Broker --amount 12.40 \\
                       --wallet Checking --category Dividends
            """)

    /// The kinds of income a trade records.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case dividend, interest, distribution
        var tradeKind: TradeKind {
            switch self {
            case .dividend: .dividend
            case .interest: .interest
            case .distribution: .distribution
            }
        }
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Asset symbol or id.") var symbol: String
    @Option(help: "The investment account (id or name).") var account: String
    @Option(parsing: .unconditional, help: "What was paid, in the wallet's currency.", transform: AmountOptions.plain) var amount: String
    @Option(help: "The wallet it was paid into (id or name).", completion: NameCompletion.wallets) var wallet: String
    @Option(help: "dividend, interest or distribution.") var kind: Kind = .dividend
    @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?
    @Option(parsing: .unconditional, help: "Units of the account's base currency per unit of the wallet's (default: the active profile's rate that day).", transform: AmountOptions.decimal) var rate: String?
    @Option(help: "Income category (id, name or path).", completion: NameCompletion.categories) var category: String?
    @Option(help: "Free text.") var notes: String?

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> Resolved<TradeRecord, TradeNames> {
        let account = try gateway.investAccount(account)
        let asset = try gateway.asset(symbol)
        let wallet = try gateway.wallet(wallet)
        let paid = try gateway.call(TradeIncomeRequest(
            kind: kind.tradeKind, accountId: account.id, assetId: asset.id, amount: amount, date: date ?? Timestamp.today(),
            walletId: wallet.id, rate: rate, categoryId: try category.map { try gateway.category($0).id }, notes: notes))
        return Resolved(paid, TradeNames(accounts: [account.id: account.name], wallets: [wallet.id: wallet.name]))
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "assetId": "<symbol>", "walletId": "--wallet", "categoryId": "--category"]
}
