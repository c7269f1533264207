import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/networth?day=2026-06-30`: net worth by month from the stored snapshots (net worth, core and
/// tangible as three lines, with today's figures last), the breakdown at the end of a chosen day
/// (`networth.get`, the request `ledgerly networth --at DAY` sends; today without one), and the
/// manual assets and liabilities with their valuation and balance history (`asset.get`,
/// `liability.get`, as `ledgerly asset show` and `liability show`). Live; the forms that add a
/// valuation or a payment have pages of their own, so a live refresh never drops what is typed
/// (D574).
struct NetWorthPage {
    let store: WebStore

    func render(query: FormFields) async throws -> Response {
        let day = query.trimmed("day") ?? ""
        let now = try await store.read(NetWorthRequest())
        var dayError: String?
        var breakdown = now
        if !day.isEmpty {
            do {
                breakdown = try await store.read(NetWorthRequest(at: day))
            } catch {
                guard case .rejected(let body) = error else { throw error }
                dayError = body.message
            }
        }
        let snapshots = try await store.read(NetWorthSnapshotListRequest()).snapshots
        let assets = try await store.read(ManualAssetListRequest()).assets
        var valued: [ManualAssetRecord] = []
        for asset in assets { valued.append(try await store.read(ManualAssetGetRequest(id: asset.id))) }
        let liabilities = try await store.read(LiabilityListRequest()).liabilities
        var owed: [LiabilityRecord] = []
        for liability in liabilities { owed.append(try await store.read(LiabilityGetRequest(id: liability.id))) }
        var wallets: [Int64: String] = [:]
        if !liabilities.isEmpty {
            wallets = Dictionary(uniqueKeysWithValues: try await store.read(WalletListRequest(includeArchived: true)).wallets.map { ($0.id, $0.name) })
        }

        let thisMonth = WebCalendar.month(of: WebCalendar.today())
        var labels = snapshots.map(\.month)
        var figures = snapshots.map(\.figures)
        if labels.last != thisMonth {
            labels.append("now")
            figures.append(now.figures)
        }
        let chart = MultiLineChart.svg(labels: labels, series: [
            .init(name: "Net worth", values: figures.map(\.netWorth)),
            .init(name: "Core", values: figures.map(\.core)),
            .init(name: "Tangible", values: figures.map(\.tangible)),
        ], title: "Net worth by month", currency: now.baseCurrency)

        let content: HTML = """
        \(ReportTabs.html(current: "/networth"))\
        <section class="card" aria-labelledby="nw-chart"><h2 id="nw-chart">Over time</h2>\(chart)\
        <p class="muted">Each month as its snapshot was taken at its end (it never changes afterwards; <code>ledgerly report networth --recompute</code> compares), then today. Core leaves out volatile assets and speculative holdings; tangible is cash and tangible assets less liabilities.</p></section>\
        \(Self.breakdown(breakdown, day: day, dayError: dayError))\
        \(Self.assetList(valued))\
        \(Self.liabilityList(owed, wallets: wallets))
        """
        return WebResponse.html(PageLayout.page(title: "Net worth", current: "/networth", live: true, content), status: dayError == nil ? .ok : .unprocessableContent)
    }

    /// The figures and every item behind them at the end of the chosen day, with the day's form.
    static func breakdown(_ report: NetWorthReport, day: String, dayError: String?) -> HTML {
        let base = report.baseCurrency
        let figures = report.figures
        let items = NetWorthItemKind.allCases.flatMap { kind in report.items.filter { $0.kind == kind } }.map { item -> HTML in
            let amount: HTML = item.amount.map { amount in HTML("<span class=\"num\">\(amount) \(item.currency ?? "")</span> · ") } ?? .empty
            let value: HTML = item.baseValue.map { HTML("<strong class=\"num\">\($0) \(base)</strong>") } ?? "<strong class=\"stale\">not valued</strong>"
            let rate: HTML = item.rate.map { rate in HTML("<br><span class=\"muted\">at \(rate)\(item.rateAsOf.map { " (\($0))" } ?? "")</span>") } ?? .empty
            let notCounted: HTML = !item.counted && item.notValued == nil ? " <span class=\"muted\">(not counted in net worth)</span>" : .empty
            let partly: HTML = item.baseValue != nil && item.notValued != nil ? " <span class=\"muted\">(partly valued)</span>" : .empty
            let archived: HTML = item.archived ? " <span class=\"muted\">(archived)</span>" : .empty
            return """
            <li data-item="\(item.kind.rawValue)-\(item.id)"><p><span class="muted">\(Self.kindText(item.kind))</span> <strong>\(item.name)</strong>\(archived)\(notCounted)\(partly)<br>\
            \(amount)\(value)\(rate)</p></li>
            """
        }
        let warnings: HTML = report.warnings.isEmpty && report.notValued.isEmpty ? .empty : """
            <div class="notice"><ul>\(report.warnings.map { HTML("<li>\($0)</li>") })\
            \(report.notValued.isEmpty ? HTML.empty : HTML("<li>Not valued (no rate or price), so left out: \(report.notValued.joined(separator: ", "))</li>"))</ul></div>
            """
        let list: HTML = items.isEmpty
            ? "<p class=\"empty\">Nothing to count yet: add a wallet, an investment account, an asset (<code>ledgerly asset add</code>) or a liability (<code>ledgerly liability add</code>).</p>"
            : "<ul class=\"list\" id=\"breakdown\">\(items)</ul>"
        return """
        <section class="card" aria-labelledby="nw-day"><h2 id="nw-day">On \(report.date)</h2>\
        <form class="filters" method="get" action="/networth" aria-label="Day">\
        <div><label for="day">At the end of</label><input id="day" name="day" type="date" value="\(day)">\(FormSupport.error(dayError))</div>\
        <div><button type="submit">Show</button></div></form>\
        <p class="figure" id="networth-figure">\(figures.netWorth) \(base)</p>\
        <dl class="figures" id="networth-figures">\
        <div><dt>Total assets</dt><dd class="num" data-figure="totalAssets">\(figures.totalAssets)</dd></div>\
        <div><dt>Total liabilities</dt><dd class="num" data-figure="totalLiabilities">\(figures.totalLiabilities)</dd></div>\
        <div><dt>Core</dt><dd class="num" data-figure="core">\(figures.core)</dd></div>\
        <div><dt>Tangible</dt><dd class="num" data-figure="tangible">\(figures.tangible)</dd></div>\
        <div><dt>Volatile</dt><dd class="num" data-figure="volatile">\(figures.volatile)</dd></div></dl>\
        <p class="muted">As of \(report.asOf), in \(base); each item at the rate in force then.</p>\(warnings)\(list)</section>
        """
    }

    static func kindText(_ kind: NetWorthItemKind) -> String {
        switch kind {
        case .wallet: "Wallet"
        case .investmentAccount: "Investments"
        case .asset: "Asset"
        case .liability: "Liability"
        }
    }

    /// Each manual asset with its value, every valuation (newest first) and the way to add one.
    static func assetList(_ assets: [ManualAssetRecord]) -> HTML {
        let rows = assets.map { asset -> HTML in
            let history = (asset.valuations ?? []).reversed().map { valuation -> HTML in
                "<tr><th scope=\"row\">\(valuation.date)</th><td class=\"num\">\(valuation.value)</td><td>\(valuation.notes ?? "")</td></tr>"
            }
            return """
            <li id="asset-\(asset.id)" data-asset="\(asset.id)"><p><strong>\(asset.name)</strong> <span class="num">\(asset.value) \(asset.currency)</span> \
            <span class="muted">since \(asset.valuedOn) · \(asset.assetType.rawValue)\(asset.volatile ? " · volatile" : "")</span></p>\
            <details><summary>Valuations (\(history.count))</summary><div class="scroll"><table><thead><tr><th scope="col">From</th><th scope="col" class="num">Value</th><th scope="col">Notes</th></tr></thead>\
            <tbody>\(history)</tbody></table></div></details>\
            <p><a class="button" href="/networth/assets/\(asset.id)">Add a valuation</a></p></li>
            """
        }
        let list: HTML = rows.isEmpty ? "<p class=\"empty\">No manual assets (<code>ledgerly asset add</code> adds a house, a car, a claim).</p>" : "<ul class=\"list\" id=\"assets\">\(rows)</ul>"
        return "<section class=\"card\" aria-labelledby=\"nw-assets\"><h2 id=\"nw-assets\">Manual assets</h2>\(list)</section>"
    }

    /// Each liability with its balance, its history (newest first) and the way to pay it.
    static func liabilityList(_ liabilities: [LiabilityRecord], wallets: [Int64: String]) -> HTML {
        let rows = liabilities.map { liability -> HTML in
            let history = (liability.history ?? []).reversed().map { entry -> HTML in
                let what: String = switch entry.kind {
                case .balance: "balance set"
                case .payment: "paid" + (entry.walletId.map { " from \(wallets[$0] ?? "wallet \($0)")" } ?? "")
                }
                return "<tr><th scope=\"row\">\(entry.date)</th><td>\(what)</td><td class=\"num\">\(entry.amount)</td><td class=\"num\">\(entry.balanceAfter)</td><td>\(entry.notes ?? "")</td></tr>"
            }
            return """
            <li id="liability-\(liability.id)" data-liability="\(liability.id)"><p><strong>\(liability.name)</strong> <span class="num">\(liability.balance) \(liability.currency)</span> \
            <span class="muted">since \(liability.balanceOn) · \(liability.liabilityType.rawValue)\(liability.interestRate.map { " · \($0) % a year" } ?? "")\(liability.dueDate.map { " · due \($0)" } ?? "")</span></p>\
            <details><summary>History (\(history.count))</summary><div class="scroll"><table><thead><tr><th scope="col">Day</th><th scope="col">What</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Balance after</th><th scope="col">Notes</th></tr></thead>\
            <tbody>\(history)</tbody></table></div></details>\
            <p><a class="button" href="/networth/liabilities/\(liability.id)">Record a payment</a></p></li>
            """
        }
        let list: HTML = rows.isEmpty ? "<p class=\"empty\">No liabilities (<code>ledgerly liability add</code> adds a mortgage, a loan, a card).</p>" : "<ul class=\"list\" id=\"liabilities\">\(rows)</ul>"
        return "<section class=\"card\" aria-labelledby=\"nw-liabilities\"><h2 id=\"nw-liabilities\">Liabilities</h2>\(list)</section>"
    }
}
