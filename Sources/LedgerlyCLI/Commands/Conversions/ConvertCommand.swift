import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly convert 100 JPY [--to EUR] [--mode parallel] [--at 2026-03-01]`, `ledgerly convert --history`
struct ConvertCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an amount with your stored rates (and keep it in the conversion history).",
        discussion: """
            ledgerly convert 100 JPY                 to your base currency, active profile
            ledgerly convert 100 USD --to ARS --mode parallel
            ledgerly convert 250 GBP --to EUR --at 2026-03-01   the rate in force that day
            ledgerly convert --history
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The amount, e.g. 100, 12.50 or 1,250.00.", transform: AmountOptions.plain) var amount: String?
    @Argument(help: "Its currency.") var currency: String?
    @Option(help: "Target currency (default: the base currency).") var to: String?
    @Option(help: "official, parallel or manual (default: the exchange mode in settings).") var mode: ExchangeMode?
    @Option(help: "Profile id or name instead of the mode's default.") var profile: String?
    @Option(help: "Use the rate in force at this date (YYYY-MM-DD) or time (ISO 8601).") var at: String?
    @Flag(help: "Show past conversions instead.") var history = false

    func validate() throws {
        if !history && (amount == nil || currency == nil) { throw ValidationError("give an amount and its currency, e.g. `ledgerly convert 100 JPY`, or --history") }
    }

    var wording: FieldWording { ConvertCommand.wording.adding(["amount": "<amount>", "from": "<currency>"]) }

    func reply(from gateway: Gateway) throws -> Outcome {
        if history { return .history(try gateway.call(ConversionHistoryRequest())) }
        return .converted(try gateway.call(ConvertRequest(
            amount: amount ?? "", from: currency ?? "", to: to, mode: mode,
            profileId: try RatesCommand.profileId(profile, gateway: gateway), at: at)))
    }

    func render(_ outcome: Outcome, gateway: Gateway) throws {
        switch outcome {
        case .history(let reply):
            if reply.conversions.isEmpty { return print("No conversions yet.") }
            var table = Table([.init("WHEN"), .init("AMOUNT", .right), .init(""), .init("RESULT", .right), .init(""), .init("RATE", .right), .init("SOURCE")])
            for conversion in reply.conversions {
                table.add([conversion.createdAt, conversion.amount, conversion.from, conversion.result, conversion.to, conversion.snapshot.rate, conversion.snapshot.source])
            }
            print(table.render(), terminator: "")
        case .converted(let converted):
            print("\(converted.amount) \(converted.from) = \(TerminalStyle.standardOutput.bold(converted.result + " " + converted.to))")
            print(TerminalStyle.standardOutput.dim(ConvertCommand.describe(converted.snapshot)))
            if let warning = converted.warning { CommandOutput.current.writeError(TerminalStyle.standardError.yellow("warning: ") + warning + "\n") }
        }
    }

    /// A conversion, or with `--history` the past ones; `--json` prints the store's reply alone.
    enum Outcome: Encodable {
        case converted(ConversionRecord)
        case history(ConversionHistoryReply)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .converted(let record): try container.encode(record)
            case .history(let reply): try container.encode(reply)
            }
        }
    }

    /// "at 0.00569216757741347905 JPY/EUR (ecb, official, as of 2026-10-30T15:00:00.000Z)"
    static func describe(_ snapshot: RateSnapshot) -> String {
        let origin = snapshot.override ? "one-off rate" : [snapshot.source, snapshot.profileName].compactMap { $0 }.joined(separator: ", ")
        return "at \(snapshot.rate) \(snapshot.quote) per \(snapshot.base) (\(origin), as of \(snapshot.asOf))" + (snapshot.stale ? ", stale when used" : "")
    }
}

extension ConvertCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["profileId": "--profile"]
}
