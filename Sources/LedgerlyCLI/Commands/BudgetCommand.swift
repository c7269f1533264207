import ArgumentParser
import Foundation
import LedgerlyProtocol

/// `ledgerly budget set|list|status|delete`: monthly budgets per expense category.
struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget", abstract: "Monthly budgets per category, with alerts at 50, 80 and 100 %.",
        discussion: """
            A budget on a parent category counts its subcategories. Spending is expenses minus refunds
            in the base currency at each transaction's kept rate; split parts count in their own
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

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a category's monthly budget (or change it).",
            discussion: "Example: ledgerly budget set Groceries 200 --thresholds 50,80,100 --carry-over")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Expense category (id, name or path).") var category: String
        @Argument(help: "Monthly limit, a plain positive decimal.") var limit: String
        @Option(help: "Currency of the limit (default: the base currency).") var currency: String?
        @Option(help: "Alert thresholds in percent, comma-separated (default 50,80,100).") var thresholds: String?
        @Flag(name: .customLong("no-alerts"), help: "No threshold alerts for this budget.") var noAlerts = false
        @Flag(inversion: .prefixedNo, help: "Carry what is left (or overspent) into the next month.") var carryOver: Bool?
        @Option(help: "First month it applies to, YYYY-MM (default: this month).") var from: String?

        func validate() throws {
            if noAlerts && thresholds != nil { throw ValidationError("--no-alerts and --thresholds contradict each other") }
            if let thresholds, thresholds.split(separator: ",").contains(where: { Int($0.trimmingCharacters(in: .whitespaces)) == nil }) {
                throw ValidationError("--thresholds takes whole percentages separated by commas, e.g. 50,80,100")
            }
        }

        func run() throws {
            try CommandRunner.run {
                let gateway = try Gateway(global)
                let category = try gateway.category(category, field: "CATEGORY")
                let levels = noAlerts ? [] : thresholds.map { $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
                let budget = try gateway.call(BudgetSetRequest(categoryId: category.id, limit: limit, currency: currency, thresholds: levels, carryOver: carryOver, startMonth: from))
                if output.json { return try JSONOutput.print(budget) }
                let alerts = budget.thresholds.isEmpty ? "no alerts" : "alerts at " + budget.thresholds.map { "\($0) %" }.joined(separator: ", ")
                print("Budget for \(category.path): \(budget.limit) \(budget.currency) a month from \(budget.startMonth), \(alerts)\(budget.carryOver ? ", carry-over on" : "").")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List budgets.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            try CommandRunner.run {
                let reply = try Gateway(global).call(BudgetListRequest())
                if output.json { return try JSONOutput.print(reply) }
                if reply.budgets.isEmpty { return print("No budgets yet. Set one: ledgerly budget set Groceries 200") }
                var table = Table([.init("ID", .right), .init("CATEGORY"), .init("LIMIT", .right), .init("CURRENCY"), .init("ALERTS"), .init("CARRY-OVER"), .init("FROM")])
                for budget in reply.budgets {
                    table.add([String(budget.id), budget.categoryName, budget.limit, budget.currency,
                               budget.thresholds.isEmpty ? "off" : budget.thresholds.map(String.init).joined(separator: ","),
                               budget.carryOver ? "on" : "off", budget.startMonth])
                }
                print(table.render(), terminator: "")
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Limit, spent, remaining and a bar per budget for a month.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "The month, YYYY-MM (default: this month).") var month: String?
        @Argument(help: "Only this budget (id or category).") var budget: String?

        func run() throws {
            try CommandRunner.run {
                let gateway = try Gateway(global)
                let ids = try budget.map { [try BudgetCommand.budget($0, gateway: gateway).id] }
                let reply = try gateway.call(BudgetStatusRequest(month: month, budgetIds: ids))
                if output.json { return try JSONOutput.print(reply) }
                if reply.budgets.isEmpty { return print("No budgets apply to \(reply.month). Set one: ledgerly budget set Groceries 200") }
                print("Budgets for \(reply.month), in \(reply.baseCurrency)")
                let style = TerminalStyle.standardOutput
                var table = Table([.init("CATEGORY"), .init("LIMIT", .right), .init("CARRIED", .right), .init("SPENT", .right), .init("LEFT", .right), .init("%", .right), .init("")])
                let width = Bar.width(besides: 70)
                for month in reply.budgets {
                    let tenths = month.percent.flatMap { Int($0.replacingOccurrences(of: ".", with: "")) } ?? (month.reached.isEmpty ? 0 : 1_000)
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
                if uncounted > 0 {
                    print(style.yellow("\(uncounted) transaction(s) wait for an exchange rate and are not counted yet (`ledgerly rates refresh`)."))
                }
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a budget (its past alerts stay).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Budget id or category.") var budget: String

        func run() throws {
            try CommandRunner.run {
                let gateway = try Gateway(global)
                let deleted = try gateway.call(BudgetDeleteRequest(id: try BudgetCommand.budget(budget, gateway: gateway).id))
                if output.json { return try JSONOutput.print(deleted) }
                print("Deleted the budget for \(deleted.categoryName).")
            }
        }
    }
}
