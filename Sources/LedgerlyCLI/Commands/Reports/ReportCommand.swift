import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly report balance|categories|cashflow|payees|networth`: answered by the store from
/// totals it keeps on every write (net worth: from the stored monthly snapshots), so each takes
/// milliseconds at any size.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Balances, spending and income by category, cash flow, top payees, net worth by month.",
        discussion: """
            Amounts are in the base currency at each transaction's kept rate (a report never changes \
            because a rate changed later). Parent categories include their subcategories, split parts \
            count in their own categories, transfers are neither income nor spending, and a refund \
            lowers its category's spending. Every report takes --json or --csv.
            """,
        subcommands: [Balance.self, Categories.self, CashFlow.self, Payees.self, ReportNetWorthCommand.self], defaultSubcommand: Balance.self)

    /// Minor units of a decimal string in `currency`, for bar lengths and shares.
    static func minor(_ amount: String, _ currency: String?) -> Int64 {
        guard let currency, let parsed = try? Currency(code: currency), let money = try? Money(parsing: amount, currency: parsed) else { return 0 }
        return money.minorUnits
    }

    /// "12.5" from 125 tenths, "-1.5" from -15.
    static func percent(tenths: Int) -> String {
        "\(tenths < 0 ? "-" : "")\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }

    /// `part` of `whole` in tenths of a percent, rounded half away from zero (so the shares
    /// printed add up to 100.0 as nearly as one decimal allows), for the % column and `Bar`.
    static func tenths(_ part: Int64, of whole: Int64) -> Int {
        guard whole > 0 else { return 0 }
        let scaled = Int128(part) * 1_000, divisor = Int128(whole)
        let magnitude = (scaled.magnitude + divisor.magnitude / 2) / divisor.magnitude
        return Int(part < 0 ? -Int128(magnitude) : Int128(magnitude))
    }

    struct Balance: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "balance", abstract: "Every wallet's and investment account's balance, its value in the base currency now, and their total.",
            discussion: """
                The total is "Wallets and investments": the wallets and investment accounts counted in net worth. \
                It is not net worth: `ledgerly networth` also counts manual assets and liabilities, and values \
                holdings directly in the base currency. An account none of whose holdings has a price is not valued.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: ReportOutputOptions
        @Flag(help: "Also list archived wallets that hold nothing (one that holds money is always listed).") var all = false

        func reply(from gateway: Gateway) throws -> BalanceReport {
            return try gateway.call(BalanceReportRequest(includeArchived: all))
        }

        func render(_ report: BalanceReport, gateway: Gateway) throws {
            let base = report.baseCurrency ?? ""
            if output.csv {
                var csv = CSVOutput(header: ["wallet_id", "wallet", "currency", "balance", "base_value", "base_currency", "rate", "in_net_worth", "archived"])
                for wallet in report.wallets {
                    csv.add([String(wallet.walletId), wallet.name, wallet.currency, wallet.balance, wallet.baseValue ?? "", base,
                             wallet.rate?.rate ?? "", wallet.includeInNetWorth ? "yes" : "no", wallet.archived ? "yes" : "no"])
                }
                // Investment accounts follow the wallets, their id prefixed "invest-" so the two never mix.
                for account in report.investments {
                    csv.add(["invest-\(account.accountId)", account.name, account.currency, account.value ?? "", account.baseValue ?? "", base, "",
                             account.includeInNetWorth ? "yes" : "no", account.archived ? "yes" : "no"])
                }
                return csv.print()
            }
            let style = TerminalStyle.standardOutput
            var table = Table([.init("WALLET"), .init("BALANCE", .right), .init("CURRENCY"), .init("IN \(base)", .right), .init("RATE")])
            for wallet in report.wallets {
                let rate = wallet.rate.map { "\($0.rate)\($0.stale ? " (stale)" : "")" } ?? ""
                table.add([wallet.name + (wallet.archived ? " (archived)" : "") + (wallet.includeInNetWorth ? "" : " *"), wallet.balance, wallet.currency, wallet.baseValue ?? "no rate", rate]) { column, text in
                    column == 1 || column == 3 ? style.amount(text) : text
                }
            }
            for account in report.investments {
                let partly = account.value != nil && report.unvaluedInvestments.contains(account.accountId)
                table.add(["Investments: " + account.name + (account.archived ? " (archived)" : "") + (account.includeInNetWorth ? "" : " *") + (partly ? " (partly valued)" : ""),
                           account.value ?? "not valued", account.currency, account.baseValue ?? (account.value == nil ? "not valued" : "no rate"), ""]) { column, text in
                    column == 1 || column == 3 ? style.amount(text) : text
                }
            }
            // Not "Net worth": manual assets and liabilities are not in it (D411).
            table.add(["Wallets and investments", "", "", report.total ?? "", ""]) { column, text in column == 0 || column == 3 ? style.bold(text) : text }
            print(table.render(), terminator: "")
            if report.wallets.contains(where: { !$0.includeInNetWorth }) || report.investments.contains(where: { !$0.includeInNetWorth }) {
                print(style.dim("* not counted in net worth"))
            }
            for warning in report.investments.flatMap(\.warnings) { print(style.yellow(warning)) }
            // Everything the total leaves out, wholly or in part, is named on one line, as in
            // every other view (issue 45 item 4, D475): wallets without a rate and investment
            // accounts not valued (no price or no rate), not only the wallets.
            let wallets = report.wallets.filter { report.unvalued.contains($0.walletId) }.map(\.name)
            let accounts = report.investments.filter { report.unvaluedInvestments.contains($0.accountId) }
                .map { "Investments: \($0.name)" + ($0.baseValue == nil ? "" : " (partly valued)") }
            if !(wallets + accounts).isEmpty {
                print(style.yellow("Not complete: not valued in \(base), so left out of the total: \((wallets + accounts).joined(separator: ", ")) "
                                   + "(`ledgerly rates refresh` or `ledgerly rates set` for a rate, `ledgerly invest prices set` for a price)."))
            }
            print(style.dim("Net worth, with manual assets and liabilities: `ledgerly networth`."))
        }
    }

    struct Categories: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "categories",
            abstract: "Spending and income by category, in total or per month, with bars.",
            discussion: "Examples: ledgerly report categories --months 3 · ledgerly report categories --from 2026-01 --to 2026-06 --monthly --csv")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: ReportOutputOptions
        @OptionGroup var period: MonthRangeOptions
        @Option(help: "Only expense or income categories.") var kind: CategoryKind?
        @Flag(help: "One column per month.") var monthly = false
        @Flag(help: "Also total each category in the currencies it was spent in.") var byCurrency = false

        func reply(from gateway: Gateway) throws -> CategoryReport {
            let (from, to) = period.resolved
            return try gateway.categoryReport(CategoryReportRequest(from: from, to: to, kind: kind, byCurrency: byCurrency))
        }

        func render(_ report: CategoryReport, gateway: Gateway) throws {
            if output.csv { return csv(report) }
            guard !report.categories.isEmpty else { return print("No income or spending in that range.") }
            let base = report.baseCurrency ?? ""
            let style = TerminalStyle.standardOutput
            print("\(report.months.first!) to \(report.months.last!), in \(base)")
            for kind in [CategoryKind.expense, .income] {
                let rows = report.categories.filter { $0.kind == kind }
                guard !rows.isEmpty else { continue }
                let whole = rows.filter { $0.depth == 0 }.map { ReportCommand.minor($0.total, base) }.reduce(0, +)
                let title = kind == .expense ? "SPENDING" : "INCOME"
                var columns: [Table.Column] = [.init(title)]
                if monthly { columns += report.months.map { .init($0, .right) } }
                columns += [.init("TOTAL", .right), .init("%", .right)]
                if byCurrency { columns.append(.init("IN")) }
                if !monthly { columns.append(.init("")) }
                var table = Table(columns)
                let width = Bar.width(besides: 60)
                for row in rows {
                    let share = ReportCommand.tenths(ReportCommand.minor(row.total, base), of: whole)
                    var cells = [String(repeating: "  ", count: row.depth) + (row.path.split(separator: "/").last.map(String.init) ?? row.path)]
                    if monthly { cells += row.months }
                    cells += [row.total, ReportCommand.percent(tenths: share)]
                    if byCurrency { cells.append((row.byCurrency ?? []).map { "\($0.amount) \($0.currency)" }.joined(separator: ", ")) }
                    if !monthly { cells.append(Bar.render(tenthsOfPercent: share, width: width)) }
                    let barColumn = cells.count - 1
                    table.add(cells) { column, text in
                        if !monthly && column == barColumn { return kind == .expense ? style.yellow(text) : style.green(text) }
                        return row.depth == 0 && column == 0 ? style.bold(text) : text
                    }
                }
                print(table.render(), terminator: "")
            }
            for line in try WaitingRatesHint.lines(uncounted: report.uncounted, gateway: gateway) { print(style.yellow(line)) }
        }

        private func csv(_ report: CategoryReport) {
            var header = ["category", "kind", "depth"]
            if monthly { header += report.months }
            header.append("total")
            if byCurrency { header.append("by_currency") }
            var csv = CSVOutput(header: header)
            for row in report.categories {
                var fields = [row.path, row.kind.rawValue, String(row.depth)]
                if monthly { fields += row.months }
                fields.append(row.total)
                if byCurrency { fields.append((row.byCurrency ?? []).map { "\($0.amount) \($0.currency)" }.joined(separator: "; ")) }
                csv.add(fields)
            }
            csv.print()
        }
    }

    struct CashFlow: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "cashflow", abstract: "Income, expenses, net and savings rate per month, with bars.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: ReportOutputOptions
        @OptionGroup var period: MonthRangeOptions

        func reply(from gateway: Gateway) throws -> CashFlowReport {
            let (from, to) = period.resolved
            return try gateway.call(CashFlowReportRequest(from: from, to: to))
        }

        func render(_ report: CashFlowReport, gateway: Gateway) throws {
            if output.csv {
                var csv = CSVOutput(header: ["month", "income", "expenses", "net", "savings_rate"])
                for month in report.months + [report.total] { csv.add([month.month, month.income, month.expenses, month.net, month.savingsRate ?? ""]) }
                return csv.print()
            }
            guard !report.months.isEmpty else { return print("No income or spending in that range.") }
            let base = report.baseCurrency ?? ""
            let style = TerminalStyle.standardOutput
            print("Cash flow in \(base); the bar is expenses as a share of income")
            var table = Table([.init("MONTH"), .init("INCOME", .right), .init("EXPENSES", .right), .init("NET", .right), .init("SAVED %", .right), .init("")])
            let width = Bar.width(besides: 60)
            for month in report.months + [report.total] {
                let spent = ReportCommand.tenths(ReportCommand.minor(month.expenses, base), of: ReportCommand.minor(month.income, base))
                let bar = month.month == "total" ? "" : Bar.render(tenthsOfPercent: month.savingsRate == nil && ReportCommand.minor(month.expenses, base) > 0 ? 1_000 : spent, width: width)
                table.add([month.month == "total" ? "Total" : month.month, month.income, month.expenses, month.net, month.savingsRate ?? "-", bar]) { column, text in
                    switch column {
                    case 0 where month.month == "total": return style.bold(text)
                    case 3: return style.amount(text)
                    case 5: return spent >= 1_000 || month.savingsRate == nil ? style.red(text) : style.green(text)
                    default: return text
                    }
                }
            }
            print(table.render(), terminator: "")
            for line in try WaitingRatesHint.lines(uncounted: report.uncounted, gateway: gateway) { print(style.yellow(line)) }
        }
    }

    struct Payees: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "payees", abstract: "Where the money goes (or comes from), by the transactions' notes.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: ReportOutputOptions
        @OptionGroup var range: DayRangeOptions
        @Flag(help: "Income instead of spending.") var income = false
        @Option(help: "How many, 1 to 1000 (default 10).") var limit: Int?

        func reply(from gateway: Gateway) throws -> PayeeReport {
            return try gateway.call(PayeeReportRequest(from: range.from, to: range.to, kind: income ? .income : .expense, limit: limit))
        }

        func render(_ report: PayeeReport, gateway: Gateway) throws {
            if output.csv {
                var csv = CSVOutput(header: ["payee", "count", "total", "currency", "uncounted"])
                for payee in report.payees { csv.add([payee.payee, String(payee.count), payee.total, report.baseCurrency ?? "", String(payee.uncounted)]) }
                return csv.print()
            }
            guard !report.payees.isEmpty else { return print("No transactions with notes in that range.") }
            let base = report.baseCurrency ?? ""
            let largest = report.payees.map { ReportCommand.minor($0.total, base) }.max() ?? 0
            var table = Table([.init(income ? "FROM" : "PAYEE"), .init("COUNT", .right), .init("TOTAL \(base)", .right), .init("")])
            let width = Bar.width(besides: 60)
            for payee in report.payees {
                table.add([payee.payee, String(payee.count), payee.total, Bar.render(tenthsOfPercent: ReportCommand.tenths(ReportCommand.minor(payee.total, base), of: largest), width: width)])
            }
            print(table.render(), terminator: "")
        }
    }
}
