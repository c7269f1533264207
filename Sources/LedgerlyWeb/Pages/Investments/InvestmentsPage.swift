import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/investments`: what `ledgerly invest holdings --lots`, `invest gains --year Y` and
/// `invest allocation show --by group|type` print, from the same store requests, with every figure
/// exactly as the store gives it: each holding with its open lots, its price and the price's age
/// (marked stale past its limit) and a sparkline of the last 72 hours of prices; the realised
/// gains of each year split into price effect and currency effect, with income; and the
/// allocation against its targets with the drift of each (D583).
struct InvestmentsPage {
    let store: WebStore

    func render(query: FormFields) async throws -> Response {
        let dimension: AllocationDimension = query["by"] == "type" ? .assetType : .group
        let holdings = try await store.read(HoldingsRequest(includeLots: true))
        let accounts = try await store.read(InvestAccountListRequest(includeArchived: true)).accounts
        let accountNames = Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0.name) })
        var sparklines: [Int64: HTML] = [:]
        for assetId in Set(holdings.holdings.map(\.assetId)) {
            let history = try await store.read(PriceHistoryRequest(assetId: assetId)).prices
            let points = history.compactMap { price in ChartFigures.decimal(price.price).map { ChartPoint(label: price.asOf, value: $0) } }
            if let first = history.first, let last = history.last, points.count > 1 {
                sparklines[assetId] = Sparkline.svg(points, label: "\(first.symbol), last 72 h: \(first.price) to \(last.price) \(last.currency) (\(points.count) prices)")
            }
        }
        let years = try await gainsByYear()
        let allocation = try await store.read(AllocationShowRequest(dimension: dimension))

        let content: HTML = """
        <div class="cards">\
        <section class="card wide" aria-labelledby="hold"><h2 id="hold">Holdings</h2>\(holdingsSection(holdings, accountNames: accountNames, sparklines: sparklines))</section>\
        <section class="card" aria-labelledby="gains"><h2 id="gains">Realised gains by year</h2>\(gainsSection(years))</section>\
        <section class="card" aria-labelledby="alloc"><h2 id="alloc">Allocation</h2>\(allocationSection(allocation))</section>\
        </div>
        """
        return WebResponse.html(PageLayout.page(title: "Investments", current: "/investments", live: true, content))
    }

    /// One year's totals (`invest.gains` with `year`), as `ledgerly invest gains --year Y --json`.
    struct YearGains: Sendable {
        let year: Int?
        let totals: [GainsTotal]
        let saleCount: Int
    }

    /// Every year from the first sale's to this one, newest first, then all years together;
    /// each year's totals are the store's for that year (a year with neither sales nor income is
    /// left out). One sale is read per request: the totals come with any page.
    func gainsByYear() async throws -> [YearGains] {
        let all = try await store.read(GainsRequest(limit: 1))
        guard let first = all.sales.first, let firstYear = Int(first.date.prefix(4)) else {
            return all.totals.isEmpty ? [] : [YearGains(year: nil, totals: all.totals, saleCount: all.saleCount)]
        }
        let thisYear = Int(WebCalendar.today().prefix(4)) ?? firstYear
        var years: [YearGains] = []
        for year in stride(from: max(thisYear, firstYear), through: firstYear, by: -1) {
            let reply = try await store.read(GainsRequest(year: year, limit: 1))
            if reply.saleCount > 0 || reply.totals.contains(where: { ChartFigures.decimal($0.income) != 0 }) {
                years.append(YearGains(year: year, totals: reply.totals, saleCount: reply.saleCount))
            }
        }
        years.append(YearGains(year: nil, totals: all.totals, saleCount: all.saleCount))
        return years
    }

    private func holdingsSection(_ reply: HoldingsReply, accountNames: [Int64: String], sparklines: [Int64: HTML]) -> HTML {
        guard !reply.holdings.isEmpty else {
            return "<p class=\"empty\">Nothing held. Record a buy: <code>ledgerly invest buy AAPL --account Broker --quantity 10 --price 100</code>.</p>"
        }
        let totals = reply.totals.map { total -> HTML in
            """
            <li data-total="\(total.currency)"><p><strong>Total \(total.currency)</strong>: value <span class="num">\(total.valueBase)</span>, cost <span class="num">\(total.costBase)</span>, \
            gain <span class="num">\(total.gain)</span> (price effect <span class="num">\(total.priceEffect)</span>, currency effect <span class="num">\(total.currencyEffect)</span>)</p></li>
            """
        }
        let rows = reply.holdings.map { holding -> HTML in
            let account = accountNames[holding.accountId] ?? "account \(holding.accountId)"
            let price: HTML = holding.price.map { price -> HTML in
                let stale: HTML = price.stale ? " · <strong class=\"stale\">stale</strong>" : .empty
                return HTML("price <span class=\"num\">\(price.price) \(price.currency)</span> · \(StalenessPolicy.describe(.seconds(price.ageSeconds))) old (as of \(price.asOf), \(price.source))\(stale)")
            } ?? "no price yet"
            let value: HTML = holding.valueBase.map { HTML("value <span class=\"num\">\($0) \(holding.baseCurrency)</span>") } ?? "not valued"
            let gain: HTML = holding.unrealised.map { gain -> HTML in
                HTML("<br>unrealised gain <span class=\"num\">\(gain.total)</span> (price effect <span class=\"num\">\(gain.priceEffect)</span>, currency effect <span class=\"num\">\(gain.currencyEffect)</span>)")
            } ?? .empty
            let warningList = HTML.join(holding.warnings.map { HTML("<p class=\"notice\">\($0)</p>") })
            let lots = (holding.lots ?? []).map { lot -> HTML in
                HTML("<li data-lot=\"\(lot.id)\">lot \(lot.id), \(lot.acquired): <span class=\"num\">\(lot.quantity)</span> costing <span class=\"num\">\(lot.cost) \(holding.currency)</span> (<span class=\"num\">\(lot.costBase) \(holding.baseCurrency)</span>)</li>")
            }
            let lotList: HTML = lots.isEmpty ? .empty : HTML("<details><summary>\(lots.count) open lot\(lots.count == 1 ? "" : "s")</summary><ul class=\"lots\">\(lots)</ul></details>")
            return """
            <li data-holding="\(holding.accountId):\(holding.assetId)"><p><strong>\(holding.symbol)</strong> in \(account) \(sparklines[holding.assetId] ?? .empty)<br>\
            <span class="num">\(holding.quantity)</span> units · cost <span class="num">\(holding.costBase) \(holding.baseCurrency)</span> · \(value)<br>\
            <span class="muted">\(price)</span>\(gain)</p>\(warningList)\(lotList)</li>
            """
        }
        let unvalued = reply.holdings.filter { $0.valueBase == nil }.map { "\(accountNames[$0.accountId] ?? String($0.accountId)): \($0.symbol)" }
        let notComplete: HTML = unvalued.isEmpty ? .empty
            : "<p class=\"notice\">Not complete: not valued (no price or rate), so left out of the totals: \(unvalued.joined(separator: ", ")).</p>"
        return """
        <ul class="list" id="holding-totals">\(totals)</ul>\(notComplete)<ul class="list" id="holdings">\(rows)</ul>\
        <p class="muted">In each account's base currency: value = quantity × price at today's rate; gain = value − cost, split into the effect of the price and the effect of the exchange rate. Age counts from the price's own moment.</p>
        """
    }

    private func gainsSection(_ years: [YearGains]) -> HTML {
        guard !years.isEmpty else { return "<p class=\"empty\">No sales or income yet.</p>" }
        let rows = years.map { year -> HTML in
            let name = year.year.map(String.init) ?? "All years"
            let lines = year.totals.map { total -> HTML in
                HTML("""
                <li data-currency="\(total.currency)">gain <span class="num">\(total.gain) \(total.currency)</span>: price effect <span class="num">\(total.priceEffect)</span>, \
                currency effect <span class="num">\(total.currencyEffect)</span><br><span class="muted">proceeds <span class="num">\(total.proceedsBase)</span>, \
                cost <span class="num">\(total.costBase)</span>, income <span class="num">\(total.income)</span></span></li>
                """)
            }
            return "<li data-year=\"\(year.year.map(String.init) ?? "all")\"><p><strong>\(name)</strong> <span class=\"muted\">(\(year.saleCount) sale\(year.saleCount == 1 ? "" : "s"))</span></p><ul>\(lines)</ul></li>"
        }
        return """
        <ul class="list" id="gains-years">\(rows)</ul>\
        <p class="muted">As <code>ledgerly invest gains --year YEAR</code>: gain = proceeds − cost; currency effect = cost at the sale's rate − cost at the buy's; price effect = the rest. Income is dividends, interest and distributions.</p>
        """
    }

    private func allocationSection(_ reply: AllocationReply) -> HTML {
        let byGroup = reply.dimension == .group
        let switcher: HTML = byGroup
            ? "<p>By group · <a href=\"/investments?by=type\">by asset type</a></p>"
            : "<p><a href=\"/investments\">By group</a> · by asset type</p>"
        let lines = reply.lines.map { line -> HTML in
            let drifting: HTML = line.drifting ? " <strong class=\"stale\">drifting</strong>" : .empty
            let target: HTML = line.target.map { HTML("target <span class=\"num\">\($0) %</span>") } ?? "no target"
            let drift: HTML = line.drift.map { HTML(", drift <span class=\"num\">\($0)</span> points") } ?? .empty
            return """
            <li data-allocation="\(line.key)"><p><strong>\(line.key)</strong>\(drifting) <span class="num">\(line.value) \(reply.currency)</span><br>\
            actual <span class="num">\(line.actual) %</span>, \(target)\(drift)</p></li>
            """
        }
        let warnings = HTML.join(reply.warnings.map { HTML("<p class=\"notice\">\($0)</p>") })
        return """
        \(switcher)<p>Total <span class="num" id="allocation-total">\(reply.total) \(reply.currency)</span>; drifting past <span class="num">\(reply.threshold)</span> points.</p>\
        \(lines.isEmpty ? HTML("<p class=\"empty\">No holdings with a price and no targets yet (<code>ledgerly invest allocation set core 70</code>).</p>") : HTML("<ul class=\"list\" id=\"allocation\">\(lines)</ul>"))\
        \(warnings)
        """
    }
}
