import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly invest holdings`: what each account holds, what it cost, what it is worth at the
/// latest price, and the unrealised gain split into price and currency effects (`invest.holdings`).
struct InvestHoldingsCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "holdings", abstract: "Holdings: quantity, cost, price and its age, value, unrealised gain; totals per base currency.",
        discussion: """
            Figures are in each account's base currency: value = round(quantity × price) at today's rate; gain = value − cost, \
            split into a price effect and a currency effect (currencyEffect = round(cost × today's rate) − costBase).
            A stale price is still used and marked. On a terminal, the last 72 hours of prices are drawn as a sparkline.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this account (id or name).") var account: String?
    @Flag(help: "List each holding's open lots.") var lots = false

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> HoldingsReply {
        return try gateway.call(HoldingsRequest(accountId: try account.map { try gateway.investAccount($0).id }, includeLots: lots ? true : nil))
    }

    func render(_ reply: HoldingsReply, gateway: Gateway) throws {
        if reply.holdings.isEmpty { return print("Nothing held. Record a buy: ledgerly invest buy AAPL --account Broker --quantity 10 --price 100") }
        let accounts = try gateway.investAccountNames()
        let sparklines = CommandOutput.current.outputIsTerminal ? try Self.sparklines(for: reply.holdings, gateway: gateway) : [:]
        print(Self.table(reply, accounts: accounts, sparklines: sparklines), terminator: "")
        let style = TerminalStyle.standardOutput
        for total in reply.totals {
            print("Total \(total.currency): cost \(total.costBase), value \(total.valueBase), gain \(style.amount(total.gain)) "
                  + "(price effect \(total.priceEffect), currency effect \(total.currencyEffect))")
        }
        for holding in reply.holdings {
            for warning in holding.warnings { print(style.yellow("warning: \(holding.symbol) in \(accounts[holding.accountId] ?? String(holding.accountId)): \(warning)")) }
        }
        // A holding without a value is left out of the totals (cost too), never counted as 0: said, named (D410).
        let unvalued = reply.holdings.filter { $0.valueBase == nil }.map { "\(accounts[$0.accountId] ?? String($0.accountId)): \($0.symbol)" }
        if !unvalued.isEmpty {
            print(style.yellow("Not complete: not valued (no price or rate), so left out of the totals: \(unvalued.joined(separator: ", "))."))
        }
    }

    static func table(_ reply: HoldingsReply, accounts: [Int64: String], sparklines: [Int64: String]) -> String {
        let style = TerminalStyle.standardOutput
        var columns: [Table.Column] = [
            .init("ACCOUNT"), .init("SYMBOL"), .init("QUANTITY", .right), .init("COST", .right), .init("PRICE", .right), .init("AGE", .right),
            .init("VALUE", .right), .init("GAIN", .right), .init("PRICE EFF.", .right), .init("CURRENCY EFF.", .right),
        ]
        if !sparklines.isEmpty { columns.append(.init("72 H")) }
        var table = Table(columns)
        for holding in reply.holdings {
            let age = holding.price.map { RatesCommand.age($0.ageSeconds) + ($0.stale ? " stale" : "") } ?? "-"
            let account: String = accounts[holding.accountId] ?? String(holding.accountId)
            let price: String = holding.price.map { "\($0.price) \($0.currency)" } ?? "no price"
            let value: String = holding.valueBase.map { "\($0) \(holding.baseCurrency)" } ?? "-"
            let gain: UnrealisedGain? = holding.unrealised
            var cells: [String] = [account, holding.symbol, holding.quantity, "\(holding.costBase) \(holding.baseCurrency)", price, age, value]
            cells += [gain?.total ?? "-", gain?.priceEffect ?? "-", gain?.currencyEffect ?? "-"]
            if !sparklines.isEmpty { cells.append(sparklines[holding.assetId] ?? "") }
            table.add(cells) { column, text in
                switch column {
                case 5: return holding.price?.stale == true ? style.yellow(text) : text
                case 7, 8, 9: return style.amount(text)
                default: return text
                }
            }
            for lot in holding.lots ?? [] {
                var lotCells = ["", "└ lot \(lot.id) \(lot.acquired)", lot.quantity, "\(lot.costBase) \(holding.baseCurrency)", "", "", "", "", "", ""]
                if !sparklines.isEmpty { lotCells.append("") }
                table.add(lotCells) { _, text in style.dim(text) }
            }
        }
        return table.render()
    }

    /// Asset id → its sparkline over the last 72 hours, for the assets that have two prices or more.
    static func sparklines(for holdings: [HoldingRecord], gateway: Gateway) throws -> [Int64: String] {
        var lines: [Int64: String] = [:]
        for assetId in Set(holdings.map(\.assetId)) {
            let history = try gateway.call(PriceHistoryRequest(assetId: assetId)).prices
            if let line = Sparkline.render(history.map(\.price)) { lines[assetId] = line }
        }
        return lines
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "includeLots": "--lots"]
}
