import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly invest gains`: realised gains per sale and per lot, with totals and income
/// (`invest.gains`).
struct InvestGainsCommand: ReplyCommand {
    static let configuration = CommandConfiguration(
        commandName: "gains", abstract: "Realised gains per sale and per lot (cost, proceeds, gain, price and currency effect), totals and income.",
        discussion: """
            Figures are in the account's base currency, from the stored, rounded figures (docs/investments.md):
              gain           = proceedsBase − costBase
              currencyEffect = round(cost × R₁) − costBase
              priceEffect    = gain − currencyEffect
            That is, with quantity q, prices P₀ → P₁ and rates R₀ → R₁:
              price effect    q(P₁ − P₀)R₁
              currency effect qP₀(R₁ − R₀)
            Fees are in the cost (P₀) and come off the proceeds (P₁). R₁ is the sale's rate; cost is in the asset's \
            currency. Income is dividends, interest and distributions.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Sales dated in this calendar year (default: all years).") var year: Int?
    @Option(help: "Only this account (id or name).") var account: String?
    @Option(help: "Only this asset (symbol or id).") var symbol: String?

    static let pageSize = 2_000

    var wording: FieldWording { Self.wording }

    func reply(from gateway: Gateway) throws -> GainsReply {
        let accountId = try account.map { try gateway.investAccount($0).id }
        let assetId = try symbol.map { try gateway.asset($0, field: "--symbol").id }
        // Every sale, a page at a time (a reply stays a few MB at most); the totals come with each.
        var reply = try gateway.call(GainsRequest(year: year, accountId: accountId, assetId: assetId, limit: Self.pageSize))
        while let next = reply.next {
            let page = try gateway.call(GainsRequest(year: year, accountId: accountId, assetId: assetId, limit: Self.pageSize, after: next))
            reply.sales += page.sales
            reply.next = page.next
        }
        return reply
    }

    func render(_ reply: GainsReply, gateway: Gateway) throws {
        let style = TerminalStyle.standardOutput
        if reply.sales.isEmpty { print("No sales\(year.map { " in \($0)" } ?? "").") } else {
            let accounts = try gateway.investAccountNames()
            var table = Table([
                .init("TRADE", .right), .init("DATE"), .init("ACCOUNT"), .init("SYMBOL"), .init("METHOD"), .init("QUANTITY", .right), .init("COST", .right),
                .init("PROCEEDS", .right), .init("COST BASE", .right), .init("PROCEEDS BASE", .right), .init("GAIN", .right),
                .init("PRICE EFF.", .right), .init("CURRENCY EFF.", .right),
            ])
            for sale in reply.sales {
                let r = sale.realised
                table.add([String(sale.tradeId), sale.date, accounts[sale.accountId] ?? String(sale.accountId), sale.symbol, sale.method.rawValue, r.quantity,
                           r.cost, r.proceeds, r.costBase, r.proceedsBase, "\(r.gain) \(sale.baseCurrency)", r.priceEffect, r.currencyEffect]) { column, text in
                    column >= 10 ? style.amount(text) : text
                }
                for lot in sale.lots {
                    let l = lot.realised
                    table.add(["", lot.acquired, "", "└ lot \(lot.lotId)", "", l.quantity, l.cost, l.proceeds, l.costBase, l.proceedsBase, l.gain, l.priceEffect, l.currencyEffect]) { _, text in
                        style.dim(text)
                    }
                }
            }
            print(table.render(), terminator: "")
        }
        for total in reply.totals {
            print("Total \(total.currency): proceeds \(total.proceedsBase), cost \(total.costBase), gain \(style.amount(total.gain)) "
                  + "(price effect \(total.priceEffect), currency effect \(total.currencyEffect)); income \(total.income)")
        }
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "assetId": "--symbol"]
}
