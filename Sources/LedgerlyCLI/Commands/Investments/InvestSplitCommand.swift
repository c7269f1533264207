import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest split`: a stock split of an asset in every account (`invest.trade.split`).
struct InvestSplitCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "split", abstract: "Record a split: from its date every lot holds NEW/OLD times the units at the same cost.",
        discussion: "Example: ledgerly invest split AAPL 2:1 --date 2026-06-10\nA ratio such as 1:10 is a reverse split.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Asset symbol or id.") var symbol: String
    @Argument(help: "NEW:OLD, two positive integers (2:1 doubles).") var ratio: String
    @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?
    @Option(help: "Free text.") var notes: String?

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> TradeRecord {
        return try gateway.call(TradeSplitRequest(assetId: try gateway.asset(symbol).id, ratio: ratio, date: date ?? Timestamp.today(), notes: notes))
    }

    func render(_ split: TradeRecord, gateway: Gateway) throws {
        print(TradeDescription.sentence(split))
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["assetId": "<symbol>", "ratio": "<ratio>"]
}
