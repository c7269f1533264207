import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest …`: investment accounts, assets, trades, holdings, gains, prices and
/// allocation (docs/investments.md). Each subcommand lives in its own file.
struct InvestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invest", abstract: "Investments: accounts, assets, trades, holdings, realised gains, prices, allocation.",
        discussion: """
            Accounts are named by id or name, assets by symbol or id. Quantities, prices, fees and rates are plain \
            decimals, passed to the store as typed. The rules (lots, cost-basis methods, gains split into a price and a \
            currency effect) are in docs/investments.md.
            Example: ledgerly invest account add Broker --base-currency EUR
                     ledgerly invest asset add AAPL --type stock --currency USD
                     ledgerly invest buy AAPL --account Broker --quantity 10 --price 100 \\
                       --fee 1
            """,
        subcommands: [
            InvestAccountCommand.self, InvestAssetCommand.self, InvestWatchCommand.self,
            InvestBuyCommand.self, InvestSellCommand.self, InvestIncomeCommand.self, InvestSplitCommand.self, InvestTransferCommand.self,
            InvestDeleteCommand.self, InvestTradesCommand.self,
            InvestHoldingsCommand.self, InvestGainsCommand.self, InvestPricesCommand.self, InvestAllocationCommand.self, InvestImportCommand.self,
        ],
        defaultSubcommand: InvestHoldingsCommand.self)
}
