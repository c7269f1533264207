import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest asset add|list|edit`
struct InvestAssetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asset", abstract: "Assets: shares, funds, bonds, coins; each priced and traded in its quote currency.",
        subcommands: [Add.self, List.self, Edit.self], defaultSubcommand: List.self)

    static func table(_ assets: [AssetRecord]) -> String {
        var table = Table([.init("ID", .right), .init("SYMBOL"), .init("TYPE"), .init("NAME"), .init("EXCHANGE"), .init("CURRENCY"), .init("PROVIDER"), .init("GROUP"), .init("WATCHED")])
        for asset in assets {
            let provider = asset.provider.rawValue + (asset.providerId.map { " (\($0))" } ?? "")
            table.add([String(asset.id), asset.symbol, asset.assetType.rawValue, asset.name ?? "", asset.exchange ?? "", asset.quoteCurrency, provider,
                       asset.allocationGroup ?? "", asset.watched ? "yes" : ""])
        }
        return table.render()
    }

    static func summary(_ asset: AssetRecord) -> String {
        "asset \(asset.id) \(asset.symbol) (\(asset.assetType.rawValue), \(asset.quoteCurrency), priced by \(asset.provider.rawValue)"
            + (asset.allocationGroup.map { ", group \($0)" } ?? "") + (asset.watched ? ", watched" : "") + ")"
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an asset.",
            discussion: """
                Example: ledgerly invest asset add AAPL --type stock --currency USD \\
                           --name 'Apple Inc.' --exchange NASDAQ --group core
                         ledgerly invest asset add BTC --type crypto --currency USD \\
                           --provider-id bitcoin
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Its symbol (unique, any case).") var symbol: String
        @Option(help: "stock, etf, fund, bond, crypto or other.") var type: AssetType
        @Option(help: "Quote currency: its prices and trades are in it.") var currency: String
        @Option(help: "Its name.") var name: String?
        @Option(help: "Where it trades.") var exchange: String?
        @Option(help: "Price provider: alphavantage, coingecko, finnhub or manual (default coingecko for crypto, else alphavantage).") var provider: PriceProvider?
        @Option(name: .customLong("provider-id"), help: "The provider's id when it differs from the symbol (a CoinGecko coin id).") var providerId: String?
        @Option(help: "Allocation group (your own: core, speculative).") var group: String?
        @Flag(help: "Put it on the watchlist (priced even when not held).") var watch = false

        var wording: FieldWording { InvestAssetCommand.wording.adding(["symbol": "<symbol>"]) }

        func reply(from gateway: Gateway) throws -> AssetRecord {
            return try gateway.call(AssetCreateRequest(
                symbol: symbol, assetType: type, name: name, exchange: exchange, quoteCurrency: currency, provider: provider,
                providerId: providerId, allocationGroup: group, watched: watch ? true : nil))
        }

        func render(_ created: AssetRecord, gateway: Gateway) throws {
            print("Added \(InvestAssetCommand.summary(created)).")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List assets.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { InvestAssetCommand.wording }

        func reply(from gateway: Gateway) throws -> AssetListReply {
            return try gateway.call(AssetListRequest())
        }

        func render(_ reply: AssetListReply, gateway: Gateway) throws {
            if reply.assets.isEmpty { return print("No assets yet. Add one: ledgerly invest asset add AAPL --type stock --currency USD") }
            print(InvestAssetCommand.table(reply.assets), terminator: "")
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an asset (an empty string clears a text; the currency cannot change once it has trades).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Symbol or id.") var asset: String
        @Option(help: "New symbol.") var symbol: String?
        @Option(help: "stock, etf, fund, bond, crypto or other.") var type: AssetType?
        @Option(help: "Its name.") var name: String?
        @Option(help: "Where it trades.") var exchange: String?
        @Option(help: "Quote currency.") var currency: String?
        @Option(help: "alphavantage, coingecko, finnhub or manual.") var provider: PriceProvider?
        @Option(name: .customLong("provider-id"), help: "The provider's id for it.") var providerId: String?
        @Option(help: "Allocation group.") var group: String?

        var wording: FieldWording { InvestAssetCommand.wording.adding(["id": "<asset>"]) }

        func reply(from gateway: Gateway) throws -> AssetRecord {
            let target = try gateway.asset(asset, field: "<asset>")
            return try gateway.call(AssetUpdateRequest(
                id: target.id, symbol: symbol, assetType: type, name: name, exchange: exchange, quoteCurrency: currency,
                provider: provider, providerId: providerId, allocationGroup: group))
        }

        func render(_ updated: AssetRecord, gateway: Gateway) throws {
            print("Updated \(InvestAssetCommand.summary(updated)).")
        }
    }
}

extension InvestAssetCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["assetType": "--type", "quoteCurrency": "--currency", "allocationGroup": "--group", "watched": "--watch"]
}
