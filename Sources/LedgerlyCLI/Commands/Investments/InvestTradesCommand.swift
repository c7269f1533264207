import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest trades`: the trades, oldest first (`invest.trade.list`).
struct InvestTradesCommand: ReplyCommand {
    static let configuration = CommandConfiguration(commandName: "trades", abstract: "List trades, oldest first.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this account (id or name).") var account: String?
    @Option(help: "Only this asset (symbol or id).") var symbol: String?
    @OptionGroup var range: DayRangeOptions

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> TradeListReply {
        return try gateway.call(TradeListRequest(
            accountId: try account.map { try gateway.investAccount($0).id }, assetId: try symbol.map { try gateway.asset($0, field: "--symbol").id },
            from: range.from, to: range.to))
    }

    func render(_ reply: TradeListReply, gateway: Gateway) throws {
        if reply.trades.isEmpty { return print("No trades. Record one: ledgerly invest buy AAPL --account Broker --quantity 10 --price 100") }
        let accounts = try gateway.investAccountNames()
        let style = TerminalStyle.standardOutput
        var table = Table(TradeDescription.columns)
        for trade in reply.trades {
            table.add(TradeDescription.row(trade, accounts: accounts)) { column, text in column == 12 ? style.amount(text) : text }
        }
        print(table.render(), terminator: "")
        let unapplied = reply.trades.filter { $0.unapplied != nil }
        if !unapplied.isEmpty {
            print("\(unapplied.count) trade\(unapplied.count == 1 ? "" : "s") marked unapplied: devices that synced sold or moved more than the lots held, and the lots leave \(unapplied.count == 1 ? "it" : "them") out until one of the clashing trades is deleted:")
            for trade in unapplied { print("  trade \(trade.id): \(trade.unapplied ?? "")") }
        }
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "assetId": "--symbol"]
}
