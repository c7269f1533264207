import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly budget set|list|status|delete`: monthly budgets per expense category.
struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget", abstract: "Monthly budgets per category, with alerts at 50, 80 and 100 %.",
        discussion: """
            A budget on a parent category counts its subcategories. Spending is expenses minus refunds \
            in the base currency at each transaction's kept rate; split parts count in their own \
            categories; transfers never count. Alerts are raised once per budget, month and threshold.
            """,
        subcommands: [Set.self, List.self, Status.self, Delete.self], defaultSubcommand: Status.self)

    /// A budget by id or by its category (id, name or path).
    static func budget(_ reference: String, gateway: Gateway) throws -> BudgetRecord {
        let budgets = try gateway.call(BudgetListRequest()).budgets
        if let id = Int64(reference), let match = budgets.first(where: { $0.id == id }) { return match }
        let category = try gateway.category(reference, field: "BUDGET")
        guard let match = budgets.first(where: { $0.categoryId == category.id }) else {
            throw CLIFailure(message: "'\(category.path)' has no budget; set one with `ledgerly budget set \(category.name) AMOUNT`", status: .refused)
        }
        return match
    }

    struct Set: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a category's monthly budget (or change its limit from a month on).",
            discussion: """
                Example: ledgerly budget set Groceries 200 --thresholds 50,80,100 --carry-over
                A change applies from --from (default: this month) on; earlier months keep the limit they had, \
                so their status, alerts and carry-over do not change. `ledgerly budget list` shows each budget's history.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Expense category (id, name or path).") var category: String
        @Argument(help: "Monthly limit, a positive amount (1200, 1,200.00, or 1.200,00 under a decimal-comma locale).", transform: AmountOptions.plain) var limit: String
        @Option(help: "Currency of the limit (default: the base currency).") var currency: String?
        @Option(help: "Alert thresholds in percent, comma-separated (default 50,80,100).") var thresholds: String?
        @Flag(name: .customLong("no-alerts"), help: "No threshold alerts for this budget.") var noAlerts = false
        @Flag(inversion: .prefixedNo, help: "Carry what is left (or overspent) into the next month.") var carryOver: Bool?
        @Option(parsing: .unconditional, help: "First month this limit applies to, YYYY-MM, or a day's month (default: this month); earlier months keep theirs.",
                transform: DayOptions.month) var from: String?

        func validate() throws {
            if noAlerts && thresholds != nil { throw ValidationError("--no-alerts and --thresholds contradict each other") }
            if let thresholds, thresholds.split(separator: ",").contains(where: { Int($0.trimmingWhitespace()) == nil }) {
                throw ValidationError("--thresholds takes whole percentages separated by commas, e.g. 50,80,100")
            }
        }

        var wording: FieldWording { BudgetCommand.wording.adding(["categoryId": "<category>", "limit": "<limit>"]) }

        /// With the category as found, whose path the sentence gives.
        func reply(from gateway: Gateway) throws -> Resolved<BudgetRecord, CategoryRecord> {
            let category = try gateway.category(category, field: "CATEGORY")
            let levels = noAlerts ? [] : thresholds.map { $0.split(separator: ",").compactMap { Int($0.trimmingWhitespace()) } }
            return Resolved(try gateway.call(BudgetSetRequest(categoryId: category.id, limit: limit, currency: currency, thresholds: levels, carryOver: carryOver, startMonth: from)),
                            category)
        }

        func render(_ reply: Resolved<BudgetRecord, CategoryRecord>, gateway: Gateway) throws {
            let budget = reply.body, category = reply.context
            let alerts = budget.thresholds.isEmpty ? "no alerts" : "alerts at " + budget.thresholds.map { "\($0) %" }.joined(separator: ", ")
            let set = BudgetLimitText.limit(from: from, in: budget)
            print("Budget for \(category.path): \(set.limit) \(set.currency) a month from \(set.fromMonth), \(alerts)\(budget.carryOver ? ", carry-over on" : "").")
            let history = budget.limits ?? []
            if history.count > 1 { print("Limits: " + BudgetLimitText.history(history) + ".") }
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List budgets.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { BudgetCommand.wording }

        func reply(from gateway: Gateway) throws -> BudgetListReply {
            return try gateway.call(BudgetListRequest())
        }

        func render(_ reply: BudgetListReply, gateway: Gateway) throws {
            if reply.budgets.isEmpty { return print("No budgets yet. Set one: ledgerly budget set Groceries 200") }
            var table = Table([.init("ID", .right), .init("CATEGORY"), .init("LIMIT", .right), .init("CURRENCY"), .init("ALERTS"), .init("CARRY-OVER"), .init("FROM")])
            for budget in reply.budgets {
                table.add([String(budget.id), budget.categoryName, budget.limit, budget.currency,
                           budget.thresholds.isEmpty ? "off" : budget.thresholds.map(String.init).joined(separator: ","),
                           budget.carryOver ? "on" : "off", budget.startMonth])
            }
            print(table.render(), terminator: "")
            for budget in reply.budgets where (budget.limits?.count ?? 0) > 1 {
                print("\(budget.categoryName): " + BudgetLimitText.history(budget.limits ?? []))
            }
        }
    }

    struct Status: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Limit, spent, remaining and a bar per budget for a month.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(parsing: .unconditional, help: "The month, YYYY-MM, or a day's month (default: this month).", transform: DayOptions.month) var month: String?
        @Argument(help: "Only this budget (id or category).") var budget: String?

        var wording: FieldWording { BudgetCommand.wording }

        func reply(from gateway: Gateway) throws -> BudgetStatusReply {
            let ids = try budget.map { [try BudgetCommand.budget($0, gateway: gateway).id] }
            return try gateway.call(BudgetStatusRequest(month: month, budgetIds: ids))
        }

        func render(_ reply: BudgetStatusReply, gateway: Gateway) throws {
            if reply.budgets.isEmpty { return print("No budgets apply to \(reply.month). Set one: ledgerly budget set Groceries 200") }
            print("Budgets for \(reply.month), in \(reply.baseCurrency)")
            let style = TerminalStyle.standardOutput
            var table = Table([.init("CATEGORY"), .init("LIMIT", .right), .init("CARRIED", .right), .init("SPENT", .right), .init("LEFT", .right), .init("%", .right), .init("")])
            let width = Bar.width(besides: 70)
            for month in reply.budgets {
                let tenths = month.percent.flatMap { Int($0.replacingEvery(".", with: "")) } ?? (month.reached.isEmpty ? 0 : 1_000)
                let bar = Bar.render(tenthsOfPercent: tenths, width: width)
                table.add([month.budget.categoryName, month.limit, month.carried, month.spent, month.remaining, month.percent ?? "-", bar]) { column, text in
                    switch column {
                    case 4: return style.amount(text)
                    case 6: return tenths >= 1_000 ? style.red(text) : tenths >= 800 ? style.yellow(text) : style.green(text)
                    default: return text
                    }
                }
            }
            print(table.render(), terminator: "")
            let uncounted = reply.budgets.map(\.uncounted).reduce(0, +)
            for line in try WaitingRatesHint.lines(uncounted: uncounted, gateway: gateway) { print(style.yellow(line)) }
        }
    }

    struct Delete: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a budget (its past alerts stay).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Budget id or category.") var budget: String

        var wording: FieldWording { BudgetCommand.wording.adding(["id": "<budget>"]) }

        func reply(from gateway: Gateway) throws -> BudgetRecord {
            return try gateway.call(BudgetDeleteRequest(id: try BudgetCommand.budget(budget, gateway: gateway).id))
        }

        func render(_ deleted: BudgetRecord, gateway: Gateway) throws {
            print("Deleted the budget for \(deleted.categoryName).")
        }
    }
}

/// How a budget's limit history reads in the terminal.
enum BudgetLimitText {
    /// "150.00 EUR from 2027-01, 200.00 EUR from 2027-03"
    static func history(_ limits: [BudgetLimit]) -> String {
        limits.map { "\($0.limit) \($0.currency) from \($0.fromMonth)" }.joined(separator: ", ")
    }

    /// The limit a `budget set` just stored: the one starting at its --from, by default this
    /// month (the store's and this machine's clock agree on it).
    static func limit(from month: String?, in budget: BudgetRecord) -> BudgetLimit {
        let start = month ?? String(Timestamp.today().prefix(7))
        return budget.limits?.first { $0.fromMonth == start } ?? BudgetLimit(fromMonth: start, limit: budget.limit, currency: budget.currency)
    }
}

extension BudgetCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["categoryId": "--category"]
}
