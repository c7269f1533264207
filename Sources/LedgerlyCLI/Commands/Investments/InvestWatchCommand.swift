import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest watch add|remove|list`: the watchlist, assets priced even when no account
/// holds them (`invest.asset.update` with `watched`).
struct InvestWatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "The watchlist: assets priced even when not held.",
        subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

    struct Add: WatchlistChange {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Watch an asset.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Symbol or id.") var symbol: String

        static let watched = true
    }

    struct Remove: WatchlistChange {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop watching an asset.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Symbol or id.") var symbol: String

        static let watched = false
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List watched assets.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { InvestWatchCommand.wording }

        func reply(from gateway: Gateway) throws -> AssetListReply {
            var reply = try gateway.call(AssetListRequest())
            reply.assets = reply.assets.filter(\.watched)
            return reply
        }

        func render(_ reply: AssetListReply, gateway: Gateway) throws {
            if reply.assets.isEmpty { return print("Nothing watched. Watch an asset: ledgerly invest watch add BTC") }
            print(InvestAssetCommand.table(reply.assets), terminator: "")
        }
    }
}

extension InvestWatchCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["id": "<symbol>"]
}

/// `invest watch add` and `remove`: set `watched` on one asset.
protocol WatchlistChange: ReplyCommand where Reply == AssetRecord {
    /// What the command sets.
    static var watched: Bool { get }
    var symbol: String { get }
}

extension WatchlistChange {
    var wording: FieldWording { InvestWatchCommand.wording }

    func reply(from gateway: Gateway) throws -> AssetRecord {
        try gateway.call(AssetUpdateRequest(id: try gateway.asset(symbol).id, watched: Self.watched))
    }

    func render(_ updated: AssetRecord, gateway: Gateway) throws {
        print(Self.watched ? "Watching \(updated.symbol): it is priced even when not held." : "\(updated.symbol) is off the watchlist.")
    }
}
