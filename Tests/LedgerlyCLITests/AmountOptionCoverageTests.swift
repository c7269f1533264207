import ArgumentParser
import FoundationEssentials
@testable import LedgerlyCLI
import Testing

/// Issue 45, item 14: every option of every command that takes an amount (money, a price, a rate,
/// a quantity, a percentage) reads the same forms through the one parser (`AmountOptions`, D420).
/// The options are found in the command tree itself (swift-argument-parser's description of it),
/// by the words of their names, so a new amount option is checked without being listed here.
@Suite struct AmountOptionCoverageTests {
    /// What swift-argument-parser says of the tree (`--experimental-dump-help`), the parts read here.
    struct ToolInfo: Decodable { let command: CommandInfo }
    struct CommandInfo: Decodable {
        let commandName: String
        let subcommands: [CommandInfo]?
        let arguments: [ArgumentInfo]?
    }
    struct ArgumentInfo: Decodable {
        struct Name: Decodable { let kind: String; let name: String }
        let kind: String
        let isOptional: Bool
        let isRepeating: Bool
        let preferredName: Name?
        let valueName: String?
        let allValues: [String]?

        /// `--starting-balance`, or `<limit>` for a positional.
        var spelled: String {
            if kind == "positional" { return "<\(valueName ?? "?")>" }
            guard let name = preferredName else { return "?" }
            return (name.kind == "short" ? "-" : "--") + name.name
        }
    }

    /// One amount option of one command.
    struct AmountOption: CustomTestStringConvertible, Sendable {
        let path: [String]
        let option: String
        let isPositional: Bool
        /// The other arguments a parse needs (the command's required ones), in order.
        let before: [String]
        let after: [String]
        let valueName: String
        var testDescription: String { "ledgerly \(path.joined(separator: " ")) \(option)" }

        /// The command line with `form` as this option's value (inside `AMOUNT:CATEGORY` or `ID:QTY`).
        func arguments(_ form: String) -> [String] {
            let value = valueName.hasPrefix("amount:") ? "\(form):Food" : valueName.hasPrefix("id:") ? "1:\(form)" : form
            return path + before + (isPositional ? [value] : [option, value]) + after
        }
    }

    /// The words that make an option an amount option…
    static let amountWords: Set<String> = ["amount", "balance", "value", "target", "limit", "price", "rate", "fee", "fund", "quantity", "percent", "split", "lot"]
    /// …and the options whose names have such a word but that take no amount: counts, minutes,
    /// switches and wallets.
    static let notAmounts: Set<String> = ["--limit", "--price-refresh-minutes", "--rate-alerts", "--auto-fund-day", "--auto-fund-from"]

    static func isAmount(_ argument: ArgumentInfo) -> Bool {
        guard argument.kind != "flag", argument.allValues == nil, !notAmounts.contains(argument.spelled) else { return false }
        let words = (argument.kind == "positional" ? argument.valueName ?? "" : argument.preferredName?.name ?? "")
            .split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() }
        return words.contains { amountWords.contains($0) || amountWords.contains(String($0.dropLast())) }
    }

    /// A value a parse accepts for an argument this test does not look at.
    static func filler(_ argument: ArgumentInfo) -> String {
        if let first = argument.allValues?.first { return first }
        let name = argument.preferredName?.name ?? argument.valueName ?? ""
        if ["date", "start", "deadline", "due"].contains(name) { return "2026-01-01" }
        if name.contains("currency") { return "EUR" }
        return "1"
    }

    static let found: [AmountOption] = {
        let tree = try! JSONDecoder().decode(ToolInfo.self, from: Data(LedgerlyCommand._dumpHelp().utf8))
        var found: [AmountOption] = []
        func walk(_ command: CommandInfo, path: [String]) {
            for sub in command.subcommands ?? [] where sub.commandName != "help" { walk(sub, path: path + [sub.commandName]) }
            let arguments = command.arguments ?? []
            for (index, argument) in arguments.enumerated() where isAmount(argument) {
                var before: [String] = [], after: [String] = []
                for (other, info) in arguments.enumerated() where other != index {
                    if info.kind == "positional" {
                        // Every positional, optional or not (`convert 100 JPY` needs its currency,
                        // `liability pay Card 120` its one amount).
                        if other < index { before.append(filler(info)) } else { after.append(filler(info)) }
                    } else if info.kind == "option", !info.isOptional {
                        after += [info.spelled, filler(info)]
                    }
                }
                found.append(AmountOption(path: path, option: argument.spelled, isPositional: argument.kind == "positional",
                                          before: before, after: after, valueName: argument.valueName ?? ""))
            }
        }
        walk(tree.command, path: [])
        return found
    }()

    /// Every `String` inside a parsed command, however deep (option wrappers, groups, records).
    static func strings(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        return Mirror(reflecting: value).children.flatMap { strings(in: $0.value) }
    }

    static let comma = AmountText.decimalComma(environment: ProcessInfo.processInfo.environment)
    /// The forms every amount option reads as 2000.50, in the locale the tests run in.
    static var accepted: [String] { comma ? ["2000,50", "2.000,50", "2 000,50", "2'000,50", "2\u{00A0}000,50"] : ["2000.50", "2,000.50", "2 000.50", "2'000.50", "2\u{00A0}000.50"] }
    /// Forms that could be misread: refused by every amount option, naming it.
    static var refused: [String] { comma ? ["2,000.50", "20.00,50", "$20.50", "0.125"] : ["20,50", "2,00.50", "2.000,50", "$20.50", "20.50 ¥", "0,125"] }
    /// One group of three with no decimal part: thousands for money, ambiguous for a rate, price,
    /// quantity or percentage, where three decimals are common (D448).
    static var loneGroup: String { comma ? "1.085" : "1,085" }
    static func takesADecimal(_ option: AmountOption) -> Bool {
        let name = option.option.lowercased()
        return ["rate", "price", "quantity", "percent", "lot", "qty"].contains { name.contains($0) }
    }

    @Test func theTreeHasTheAmountOptionsTheIssueNames() {
        let names = Set(Self.found.map { "\($0.path.joined(separator: " ")) \($0.option)" })
        for expected in ["wallet add --starting-balance", "wallet edit --starting-balance", "tx add --amount", "tx add --split", "tx add --rate", "tx edit --amount",
                         "tx transfer --amount", "tx transfer --to-amount", "budget set <limit>", "goal add --target", "goal add --auto-fund", "goal fund <amount>",
                         "asset add --value", "asset revalue <value>", "liability add --balance", "liability pay <amount>", "invest buy --price", "invest buy --rate",
                         "invest sell --quantity", "invest sell --lot", "invest prices set <price>", "rates set <rate>", "convert <amount>"] {
            #expect(names.contains(expected), "not found as an amount option: \(expected)")
        }
        #expect(Self.found.count >= 30, "\(Self.found.count) amount options")
    }

    @Test(arguments: found)
    func everyAmountOptionReadsTheSameForms(_ option: AmountOption) throws {
        for form in Self.accepted {
            let arguments = option.arguments(form)
            let command: any ParsableCommand
            do { command = try LedgerlyCommand.parseAsRoot(arguments) } catch {
                Issue.record("\(arguments): refused: \(LedgerlyCommand.message(for: error))")
                continue
            }
            let read = Self.strings(in: command)
            #expect(read.contains { $0 == "2000.50" || $0.hasPrefix("2000.50:") }, "\(arguments) was read as \(read)")
        }
        do {
            let arguments = option.arguments(Self.loneGroup)
            if Self.takesADecimal(option) {
                #expect(throws: (any Error).self, "\(arguments) was read as thousands") { try LedgerlyCommand.parseAsRoot(arguments) }
            } else if let command = try? LedgerlyCommand.parseAsRoot(arguments) {
                let read = Self.strings(in: command)
                #expect(read.contains { $0 == "1085" || $0.hasPrefix("1085:") }, "\(arguments) was read as \(read)")
            } else {
                Issue.record("\(arguments): a money amount grouped in thousands was refused")
            }
        }
        for form in Self.refused + ["EUR 20.50"] {
            let arguments = option.arguments(form)
            // `tx add --amount` alone may name its currency (it is checked against --currency).
            if form == "EUR 20.50", option.path == ["tx", "add"], option.option == "--amount" { continue }
            do {
                let command = try LedgerlyCommand.parseAsRoot(arguments)
                Issue.record("\(arguments) was accepted as \(Self.strings(in: command))")
            } catch {
                let message = LedgerlyCommand.message(for: error)
                #expect(LedgerlyCommand.exitCode(for: error).rawValue == 64, "\(arguments): \(message)")
                let named = option.isPositional ? option.option : option.option + " "
                #expect(message.contains(named), "\(arguments): the message does not name \(option.option): \(message)")
            }
        }
    }
}
