import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest delete`: removes a mistaken trade (`invest.trade.delete`); the store replays
/// the asset's later trades, and the sales whose gains changed are printed as they are now.
struct InvestDeleteCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a trade (and its linked cash); the sales after it are recomputed and shown.",
        discussion: "Refused, naming the sale, when a later sale or transfer would no longer have the units. Trade ids: `ledgerly invest trades`.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The trade's id.") var tradeId: Int64

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> TradeDeleteReply {
        return try gateway.call(TradeDeleteRequest(id: tradeId))
    }

    func render(_ reply: TradeDeleteReply, gateway: Gateway) throws {
        let accounts = try gateway.investAccountNames()
        print("Deleted: " + TradeDescription.sentence(reply.deleted, accounts: accounts))
        if reply.recomputed.isEmpty { return print("No sale's gain changed.") }
        print("Recomputed \(reply.recomputed.count) sale(s):")
        for sale in reply.recomputed { print("  " + TradeDescription.sentence(sale, accounts: accounts)) }
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["id": "<trade-id>"]
}
