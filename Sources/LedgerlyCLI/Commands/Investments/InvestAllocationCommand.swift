import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly invest allocation set|remove|show`: target shares of the portfolio per allocation
/// group or asset type, and how far the holdings have drifted from them.
struct InvestAllocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allocation", abstract: "Allocation targets per group (or asset type), and the drift from them.",
        discussion: """
            actual = value / total × 100 and drift = actual − target, in percentage points, with every held asset that has \
            a price converted to the ledger's base currency. A target drifts when |drift| is past `ledgerly settings set \
            --drift-points` (default 5); the alerts service raises one alert per episode.
            """,
        subcommands: [Set.self, Remove.self, Show.self], defaultSubcommand: Show.self)

    /// What `--by` names: the wire's `assetType` reads `type` on the command line.
    enum Dimension: String, ExpressibleByArgument, CaseIterable {
        case group, type
        var wire: AllocationDimension { self == .group ? .group : .assetType }
    }

    static func render(_ reply: AllocationReply) -> String {
        let style = TerminalStyle.standardOutput
        var text = "Allocation by \(reply.dimension == .group ? "group" : "asset type"): \(reply.total) \(reply.currency), drift threshold \(reply.threshold) points\n"
        var table = Table([.init(reply.dimension == .group ? "GROUP" : "TYPE"), .init("VALUE", .right), .init("TARGET", .right), .init("ACTUAL", .right),
                           .init("DRIFT", .right), .init(""), .init("")])
        let width = Bar.width(besides: 70)
        for line in reply.lines {
            let bar = Bar.render(tenthsOfPercent: DecimalText.tenths(line.actual) ?? 0, width: width)
            table.add([line.key, line.value, line.target.map { $0 + " %" } ?? "-", line.actual + " %", line.drift ?? "-", bar, line.drifting ? "drifting" : ""]) { column, text in
                switch column {
                case 5: return line.drifting ? style.red(text) : style.green(text)
                case 6: return style.red(text)
                default: return text
                }
            }
        }
        text += table.render()
        for warning in reply.warnings { text += style.yellow("warning: \(warning)") + "\n" }
        return text
    }

    struct Set: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a group's (or with --type an asset type's) target share of the portfolio, in percent.",
            discussion: "Targets of one kind add up to at most 100. Example: ledgerly invest allocation set core 70; ledgerly invest allocation set crypto 10 --type")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The allocation group (or asset type with --type).") var group: String
        @Argument(help: "Percent, 0 to 100, at most 2 decimals.", transform: AmountOptions.decimal) var percent: String
        @Flag(help: "GROUP is an asset type (stock, etf, fund, bond, crypto, other).") var type = false

        var wording: FieldWording { InvestAllocationCommand.wording }

        func reply(from gateway: Gateway) throws -> AllocationReply {
            return try gateway.call(
                AllocationSetRequest(dimension: type ? .assetType : .group, key: group, percent: percent))
        }

        func render(_ reply: AllocationReply, gateway: Gateway) throws {
            print(InvestAllocationCommand.render(reply), terminator: "")
        }
    }

    struct Remove: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a group's (or with --type an asset type's) target.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The allocation group (or asset type with --type).") var group: String
        @Flag(help: "GROUP is an asset type.") var type = false

        var wording: FieldWording { InvestAllocationCommand.wording }

        func reply(from gateway: Gateway) throws -> AllocationReply {
            return try gateway.call(
                AllocationSetRequest(dimension: type ? .assetType : .group, key: group, percent: nil))
        }

        func render(_ reply: AllocationReply, gateway: Gateway) throws {
            print(InvestAllocationCommand.render(reply), terminator: "")
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Target, actual and drift per group (or asset type), with a bar each; drifting ones marked.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "group or type (default group).") var by: Dimension = .group

        var wording: FieldWording { InvestAllocationCommand.wording }

        func reply(from gateway: Gateway) throws -> AllocationReply {
            return try gateway.call(AllocationShowRequest(dimension: by.wire))
        }

        func render(_ reply: AllocationReply, gateway: Gateway) throws {
            if reply.lines.isEmpty {
                print("No holdings with a price and no targets yet. Set one: ledgerly invest allocation set core 70")
                for warning in reply.warnings { print(TerminalStyle.standardOutput.yellow("warning: \(warning)")) }
                return
            }
            print(InvestAllocationCommand.render(reply), terminator: "")
        }
    }
}

extension InvestAllocationCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["key": "<group>", "percent": "<percent>", "dimension": "--type"]
}
