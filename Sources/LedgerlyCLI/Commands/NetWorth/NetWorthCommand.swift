import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly networth [--at DAY]`: what is owned less what is owed, in the base currency, at the
/// end of a day, with every wallet, investment account, manual asset and liability behind it
/// (`networth.get`, docs/networth.md).
struct NetWorthCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "networth", abstract: "Net worth now or at the end of a past day, with its breakdown.",
        discussion: """
            Everything is converted to the base currency once, at the rate in force at the moment (the end of the day; \
            now for today). Figures:
              net worth   total assets − total liabilities
              core        net worth without volatile assets and speculative holdings
                          (groups: `ledgerly settings set --speculative-groups`)
              tangible    cash and tangible assets, less liabilities
              volatile    volatile assets and speculative holdings
            An item with no rate (or a holding with no price) is not valued: it shows "not valued", adds nothing \
            (never 0, never a rate of 1) and is named under "Not complete"; an account valued in part shows the \
            value of its priced holdings and names the others. A stale rate is used and said. Wallets and accounts you left out of net \
            worth are listed and add nothing. Monthly figures: `ledgerly report networth`.
            Example: ledgerly networth --at 2026-06-30
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(parsing: .unconditional, help: "The day, YYYY-MM-DD, today, -3d, … (default today; not in the future): its end.", transform: DayOptions.day) var at: String?

    var wording: FieldWording { ["at": "--at"] }

    func reply(from gateway: Gateway) throws -> NetWorthReport {
        return try gateway.call(NetWorthRequest(at: at))
    }

    func render(_ report: NetWorthReport, gateway: Gateway) throws {
        print(Self.text(report), terminator: "")
    }

    /// The figures, the breakdown and the warnings as printed.
    static func text(_ report: NetWorthReport) -> String {
        let style = TerminalStyle.standardOutput
        let base = report.baseCurrency
        var text = style.bold("Net worth on \(report.date)") + " (as of \(report.asOf)), in \(base)\n"
        text += figures(report.figures, style: style)
        guard !report.items.isEmpty else {
            return text + "\nNothing to count yet: add a wallet, an investment account, an asset (`ledgerly asset add`) or a liability (`ledgerly liability add`).\n"
        }
        text += "\n" + breakdown(report, style: style)
        if report.items.contains(where: excludedBySetting) {
            text += style.dim("* not counted: left out of net worth by its own setting (`--net-worth on` counts it)") + "\n"
        }
        if report.items.contains(where: { $0.baseValue != nil && $0.notValued != nil }) {
            text += style.dim("partly valued: the value of its priced holdings only; the others are named below") + "\n"
        }
        for warning in report.warnings { text += style.yellow("warning: " + warning) + "\n" }
        if !report.complete {
            let unvalued = report.notValued
            text += style.yellow("Not complete: not valued in \(base), so left out of the figures: \(unvalued.isEmpty ? "see the warnings" : unvalued.joined(separator: ", ")) "
                                 + "(set a rate: `ledgerly rates set`, or a price: `ledgerly invest prices set`).") + "\n"
        }
        return text
    }

    static func figures(_ figures: NetWorthFigures, style: TerminalStyle) -> String {
        var table = Table([.init(""), .init("", .right), .init("")])
        table.add(["Total assets", figures.totalAssets, ""])
        table.add(["Total liabilities", figures.totalLiabilities, ""])
        table.add(["Net worth", figures.netWorth, ""]) { column, text in column < 2 ? style.bold(style.amount(text)) : text }
        table.add(["Core", figures.core, "without volatile assets and speculative holdings"]) { column, text in column == 2 ? style.dim(text) : style.amount(text) }
        table.add(["Tangible", figures.tangible, "cash and tangible assets, less liabilities"]) { column, text in column == 2 ? style.dim(text) : style.amount(text) }
        table.add(["Volatile", figures.volatile, "volatile assets and speculative holdings"]) { column, text in column == 2 ? style.dim(text) : text }
        // The header row of an untitled table is blank: dropped.
        return table.render(style: style).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
    }

    static func breakdown(_ report: NetWorthReport, style: TerminalStyle) -> String {
        var table = Table([.init("KIND"), .init("NAME"), .init("AMOUNT", .right), .init("RATE", .right), .init("IN \(report.baseCurrency)", .right),
                           .init("CORE", .right), .init("TANGIBLE", .right), .init("VOLATILE", .right)])
        for kind in NetWorthItemKind.allCases {
            for item in report.items where item.kind == kind {
                let name = item.name + (item.archived ? " (archived)" : "") + (excludedBySetting(item) ? " *" : "")
                    + (item.baseValue != nil && item.notValued != nil ? " (partly valued)" : "")
                let amount = item.amount.map { a in item.currency.map { "\(a) \($0)" } ?? a } ?? ""
                let rate = item.rate.map { r in item.rateAsOf.map { "\(r) (\(String($0.prefix(10))))" } ?? r } ?? ""
                table.add([kindText(kind), name, amount, rate, item.baseValue ?? "not valued", item.corePart ?? "", item.tangiblePart ?? "", item.volatilePart ?? ""]) { column, text in
                    if item.baseValue == nil && column == 4 { return style.yellow(text) }
                    if !item.counted { return style.dim(text) }
                    return column >= 4 ? style.amount(text) : text
                }
            }
        }
        return table.render(style: style)
    }

    /// Left out by its own `includeInNetWorth`, not for want of a value (which `notValued` names).
    static func excludedBySetting(_ item: NetWorthItem) -> Bool { !item.counted && item.notValued == nil }

    static func kindText(_ kind: NetWorthItemKind) -> String {
        switch kind {
        case .wallet: "wallet"
        case .investmentAccount: "investments"
        case .asset: "asset"
        case .liability: "liability"
        }
    }
}
