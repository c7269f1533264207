import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest transfer`: units moved between two accounts with their cost and acquisition
/// dates (`invest.trade.transfer`).
struct InvestTransferCommand: TradeCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer", abstract: "Move units to another account with the same base currency; lots keep their cost and dates.",
        discussion: """
            The sending account's method picks the lots, or --lot ID:QTY (repeatable) names them.
            Example: ledgerly invest transfer AAPL --from Broker --to Pension --quantity 5
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Asset symbol or id.") var symbol: String
    @Option(help: "Sending account (id or name).") var from: String
    @Option(help: "Receiving account (id or name).") var to: String
    @Option(parsing: .unconditional, help: "Units to move.", transform: AmountOptions.decimal) var quantity: String
    @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?
    @Option(name: .customLong("lot"), help: ArgumentHelp("Move QTY units of lot ID (repeatable).", valueName: "id:qty")) var lots: [LotArgument] = []
    @Option(help: "Free text.") var notes: String?

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> Resolved<TradeRecord, TradeNames> {
        let sender = try gateway.investAccount(from, field: "--from")
        let receiver = try gateway.investAccount(to, field: "--to")
        let moved = try gateway.call(TradeTransferRequest(
            fromAccountId: sender.id, toAccountId: receiver.id, assetId: try gateway.asset(symbol).id, quantity: quantity,
            date: date ?? Timestamp.today(), lots: lots.isEmpty ? nil : lots.map(\.selection), notes: notes))
        return Resolved(moved, TradeNames(accounts: [sender.id: sender.name, receiver.id: receiver.name]))
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["fromAccountId": "--from", "toAccountId": "--to", "assetId": "<symbol>", "lots": "--lot"]
}
