import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly goal add|list|show|fund`: saving goals.
struct GoalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal", abstract: "Saving goals: progress, what each month needs, alerts at 25/50/75/100 % and when behind pace.",
        subcommands: [Add.self, List.self, Show.self, Fund.self], defaultSubcommand: List.self)

    static func find(_ reference: String, gateway: Gateway) throws -> GoalRecord {
        let goals = try gateway.call(GoalListRequest()).goals
        if let id = Int64(reference), let match = goals.first(where: { $0.id == id }) { return match }
        if let match = goals.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match }
        throw CLIFailure(message: "no goal '\(reference)'; see `ledgerly goal list`", status: .refused)
    }

    static func details(_ goal: GoalRecord) -> String {
        var list = DetailList()
        list.add("Goal", "\(goal.id) \(goal.name)")
        list.add("Saved", "\(goal.current) of \(goal.target) \(goal.currency) (\(goal.percent) %)  \(Bar.render(tenthsOfPercent: Int(goal.percent.replacingEvery(".", with: "")) ?? 0, width: 20))")
        list.add("Status", goal.status == .achieved ? "reached" : goal.behindPace ? "behind pace" : "on track")
        list.add("Deadline", goal.deadline)
        list.add("Needed", goal.monthlyNeeded.map { "\($0) \(goal.currency) a month" })
        if let rule = goal.autoFund {
            let what = rule.kind == .fixed ? "\(rule.amount ?? "") \(goal.currency)" : "\(rule.percent ?? "") % of last month's income"
            list.add("Auto-fund", "\(what) on day \(rule.dayOfMonth) of each month")
        }
        list.add("Created", goal.createdAt)
        return list.render()
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a saving goal.",
            discussion: "Example: ledgerly goal add Holiday --target 2400 --deadline 2027-07-01 \\\n           --wallet Savings --auto-fund 200 --auto-fund-from Checking")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Its name.") var name: String
        @Option(parsing: .unconditional, help: "The amount to reach.", transform: AmountOptions.plain) var target: String
        @Option(help: "Currency (default: the wallet's, else the base currency).") var currency: String?
        @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, -3d, … to reach it by.", transform: DayOptions.day) var deadline: String?
        @Option(help: "The wallet the savings sit in (id or name).", completion: NameCompletion.wallets) var wallet: String?
        @Option(help: "A category it is linked to (id, name or path).", completion: NameCompletion.categories) var category: String?
        @Option(name: .customLong("auto-fund"), parsing: .unconditional, help: "Move this amount into the goal every month.", transform: AmountOptions.plain) var autoFund: String?
        @Option(name: .customLong("auto-fund-percent"), parsing: .unconditional, help: "Or this percentage of the previous month's income.", transform: AmountOptions.decimal) var autoFundPercent: String?
        @Option(name: .customLong("auto-fund-day"), help: "Day of the month for the auto-fund (1-28, default 1).") var autoFundDay = 1
        @Option(name: .customLong("auto-fund-from"), help: "Wallet the auto-fund takes the money from.") var autoFundFrom: String?

        func validate() throws {
            if autoFund != nil && autoFundPercent != nil { throw ValidationError("give --auto-fund or --auto-fund-percent, not both") }
        }

        var wording: FieldWording { GoalCommand.wording.adding(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> GoalRecord {
            let from = try autoFundFrom.map { try gateway.wallet($0, field: "--auto-fund-from").id }
            let rule: AutoFundRule? = if let autoFund {
                AutoFundRule(kind: .fixed, amount: autoFund, dayOfMonth: autoFundDay, fromWalletId: from)
            } else if let autoFundPercent {
                AutoFundRule(kind: .percentOfIncome, percent: autoFundPercent, dayOfMonth: autoFundDay, fromWalletId: from)
            } else { nil }
            return try gateway.call(GoalCreateRequest(
                name: name, target: target, currency: currency, deadline: deadline, walletId: try wallet.map { try gateway.wallet($0).id },
                categoryId: try category.map { try gateway.category($0).id }, autoFund: rule))
        }

        func render(_ created: GoalRecord, gateway: Gateway) throws {
            print("Added goal \(created.id) '\(created.name)': \(created.target) \(created.currency)\(created.deadline.map { " by \($0)" } ?? "")\(created.monthlyNeeded.map { ", \($0) a month" } ?? "").")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List goals with their progress.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { GoalCommand.wording }

        func reply(from gateway: Gateway) throws -> GoalListReply {
            return try gateway.call(GoalListRequest())
        }

        func render(_ reply: GoalListReply, gateway: Gateway) throws {
            if reply.goals.isEmpty { return print("No goals yet. Add one: ledgerly goal add Holiday --target 2400 --deadline 2027-07-01") }
            var table = Table([.init("ID", .right), .init("GOAL"), .init("SAVED", .right), .init("TARGET", .right), .init("%", .right), .init(""), .init("DEADLINE"), .init("MONTHLY", .right), .init("STATUS")])
            for goal in reply.goals {
                table.add([String(goal.id), goal.name, goal.current, "\(goal.target) \(goal.currency)", goal.percent,
                           Bar.render(tenthsOfPercent: Int(goal.percent.replacingEvery(".", with: "")) ?? 0, width: 12),
                           goal.deadline ?? "-", goal.monthlyNeeded ?? "-", goal.status == .achieved ? "reached" : goal.behindPace ? "behind" : "on track"])
            }
            print(table.render(), terminator: "")
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "One goal in detail.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Id or name.") var goal: String

        var wording: FieldWording { GoalCommand.wording.adding(["id": "<goal>"]) }

        func reply(from gateway: Gateway) throws -> GoalRecord {
            try GoalCommand.find(goal, gateway: gateway)
        }

        func render(_ found: GoalRecord, gateway: Gateway) throws {
            print(GoalCommand.details(found), terminator: "")
        }
    }

    struct Fund: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "fund",
            abstract: "Put money towards a goal.",
            discussion: "With --from and a goal that has a wallet, the money is moved into that wallet (a transfer).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Id or name.") var goal: String
        @Argument(help: "Amount in the goal's currency.", transform: AmountOptions.plain) var amount: String
        @Option(help: "Wallet the money comes from.", completion: NameCompletion.wallets) var from: String?
        @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today).", transform: DayOptions.day) var date: String?

        var wording: FieldWording { GoalCommand.wording.adding(["id": "<goal>", "amount": "<amount>"]) }

        func reply(from gateway: Gateway) throws -> GoalRecord {
            let target = try GoalCommand.find(goal, gateway: gateway)
            return try gateway.call(GoalFundRequest(id: target.id, amount: amount, fromWalletId: try from.map { try gateway.wallet($0, field: "--from").id }, date: date))
        }

        func render(_ funded: GoalRecord, gateway: Gateway) throws {
            print("'\(funded.name)': \(funded.current) of \(funded.target) \(funded.currency) saved (\(funded.percent) %).")
        }
    }
}

extension GoalCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["walletId": "--wallet", "categoryId": "--category"]
}
