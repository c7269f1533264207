import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest prices set|list|history`: asset prices, manual or fetched.
struct InvestPricesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prices", abstract: "Asset prices: set one by hand, the latest of each asset, an asset's history.",
        subcommands: [Set.self, List.self, History.self], defaultSubcommand: List.self)

    struct Set: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a price by hand (per unit, in the asset's quote currency).",
            usage: "ledgerly invest prices set <symbol> <price> [--currency <currency>] [--at <at>] [--json]",
            discussion: "Example: ledgerly invest prices set AAPL 187.20 --at 2026-11-23T21:00:00Z")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Asset symbol or id.") var symbol: String
        /// One value; read as "everything left over" so that "-1" arrives here as a (refused)
        /// price instead of being taken for an unknown option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Price per unit, a positive decimal (1234.5 or 1,234.50).", valueName: "price"),
                  transform: AmountOptions.decimal) var priceArguments: [String] = []
        @Option(help: "Must be the asset's quote currency (default: it).") var currency: String?
        @Option(help: "When the price was true: an ISO 8601 time (default: now; not in the future).") var at: String?

        func validate() throws {
            try LoneValueArgument.check(priceArguments, name: "price")
        }

        var wording: FieldWording { InvestPricesCommand.wording.adding(["price": "<price>"]) }

        func reply(from gateway: Gateway) throws -> PriceSnapshotRecord {
            let price = try gateway.call(PriceSetRequest(assetId: try gateway.asset(symbol).id, price: priceArguments[0], currency: currency, asOf: at))
            return price
        }

        func render(_ price: PriceSnapshotRecord, gateway: Gateway) throws {
            print("Set \(price.symbol) = \(price.price) \(price.currency) as of \(price.asOf) (\(price.source)).")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The latest price of each asset; stale ones are marked.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { InvestPricesCommand.wording }

        func reply(from gateway: Gateway) throws -> PriceListReply {
            return try gateway.call(PriceListRequest())
        }

        func render(_ reply: PriceListReply, gateway: Gateway) throws {
            if reply.prices.isEmpty { return print("No prices yet. Set one: ledgerly invest prices set AAPL 187.20") }
            print(InvestPricesCommand.table(reply.prices), terminator: "")
        }
    }

    struct History: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "An asset's prices, oldest first (the last 72 hours unless --since), with a sparkline on a terminal.",
            discussion: "Every price of the last 72 hours is kept; before that, one a day (the day's last).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Asset symbol or id.") var symbol: String
        @Option(help: "From this time (ISO 8601; default 72 hours ago).") var since: String?

        var wording: FieldWording { InvestPricesCommand.wording }

        /// With the asset as found, whose symbol and quote currency the view gives.
        func reply(from gateway: Gateway) throws -> Resolved<PriceListReply, AssetRecord> {
            let asset = try gateway.asset(symbol)
            return Resolved(try gateway.call(PriceHistoryRequest(assetId: asset.id, since: since)), asset)
        }

        func render(_ resolved: Resolved<PriceListReply, AssetRecord>, gateway: Gateway) throws {
            let reply = resolved.body, asset = resolved.context
            if reply.prices.isEmpty { return print("No prices of \(asset.symbol) in that time.") }
            print(InvestPricesCommand.table(reply.prices), terminator: "")
            if CommandOutput.current.outputIsTerminal, let line = Sparkline.render(reply.prices.map(\.price), width: 48) {
                print("\(asset.symbol)  \(line)  \(reply.prices.first?.price ?? "") → \(reply.prices.last?.price ?? "") \(asset.quoteCurrency)")
            }
        }
    }

    static func table(_ prices: [PriceSnapshotRecord]) -> String {
        let style = TerminalStyle.standardOutput
        var table = Table([.init("SYMBOL"), .init("PRICE", .right), .init("CURRENCY"), .init("AS OF"), .init("SOURCE"), .init("KIND"), .init("")])
        for price in prices {
            table.add([price.symbol, price.price, price.currency, price.asOf, price.source, price.confidence.rawValue, price.stale ? "stale" : ""]) { column, text in
                column == 6 ? style.yellow(text) : text
            }
        }
        return table.render()
    }
}

extension InvestPricesCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["assetId": "<symbol>", "asOf": "--at"]
}
