import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/`: net worth now and over time (from the monthly snapshots: net worth, core and tangible),
/// this month's budgets as bars with their 50/80/100 marks, cash flow of the last 12 months, what
/// is not valued for want of a rate, stale rates and failing rate providers, the newest alerts
/// and the sync state; each from the store's own report requests.
struct DashboardPage {
    let store: WebStore

    func render() async throws -> Response {
        let today = WebCalendar.today()
        let thisMonth = WebCalendar.month(of: today)
        let firstMonth = WebCalendar.monthsBefore(11, today)
        let netWorth = try await store.read(NetWorthRequest())
        let snapshots = try await store.read(NetWorthSnapshotListRequest(from: firstMonth))
        let budgets = try await store.read(BudgetStatusRequest())
        let cashFlow = try await store.read(CashFlowReportRequest(from: firstMonth, to: thisMonth))
        let alerts = try await store.read(AlertListRequest(limit: 5))
        let sync = try await store.read(SyncStatusRequest())
        // What `ledgerly rates list` (the active profile) and `ledgerly status` (the providers) ask (D575).
        let rates = try await store.read(RateListRequest())
        let providers = try await store.read(RateProviderListRequest()).providers
        let base = netWorth.baseCurrency

        let figures = netWorth.figures
        var labels = snapshots.snapshots.map(\.month)
        var history = snapshots.snapshots.map(\.figures)
        if labels.last != thisMonth {
            labels.append("now")
            history.append(figures)
        }
        let netWorthChart = MultiLineChart.svg(labels: labels, series: [
            .init(name: "Net worth", values: history.map(\.netWorth)), .init(name: "Core", values: history.map(\.core)), .init(name: "Tangible", values: history.map(\.tangible)),
        ], title: "Net worth by month", currency: base)
        let notValued: HTML = netWorth.notValued.isEmpty && netWorth.warnings.isEmpty ? .empty : """
            <section class="card wide notice" aria-labelledby="warn"><h2 id="warn">Not complete</h2><ul>\
            \(netWorth.notValued.map { HTML("<li>Not valued (no rate or price): \($0)</li>") })\
            \(netWorth.warnings.map { HTML("<li>\($0)</li>") })</ul></section>
            """
        let budgetRows = budgets.budgets.map { month -> HTML in
            let percent = month.percent.flatMap(ChartFigures.decimal) ?? 0
            let name = month.budget.categoryName
            return """
            <li><p><strong>\(name)</strong> <span class="num">\(month.spent) of \(month.available) \(budgets.baseCurrency) · \(month.percent.map { "\($0) %" } ?? "nothing available")</span></p>\
            \(BudgetBar.svg(percent: percent, label: "\(name): \(month.percent ?? "0") % spent, marks at 50, 80 and 100 %"))</li>
            """
        }
        let months = cashFlow.months.compactMap { month -> BarChart.Group? in
            guard let income = ChartFigures.decimal(month.income), let expenses = ChartFigures.decimal(month.expenses) else { return nil }
            return BarChart.Group(label: month.month, first: income, second: expenses)
        }
        let alertRows = alerts.alerts.reversed().map { alert in
            HTML("<li><p><strong>\(alert.subject)</strong><br>\(alert.message)<br><span class=\"muted\">\(alert.raisedAt)</span></p></li>")
        }
        let syncLine: String = switch sync.state {
        case "off": "Sync is off."
        case "error": "Sync failed: \(sync.lastError ?? "unknown error")"
        default: "Sync \(sync.state): last success \(sync.lastSuccess ?? "never"), \(sync.waitingOut) waiting to go out."
        }
        let content: HTML = """
        <div class="cards">\
        <section class="card" aria-labelledby="nw"><h2 id="nw">Net worth</h2>\
        <p class="figure" id="net-worth">\(figures.netWorth) \(base)</p>\
        <p class="muted">Core \(figures.core) · tangible \(figures.tangible) · assets \(figures.totalAssets) · liabilities \(figures.totalLiabilities)</p></section>\
        <section class="card" aria-labelledby="sync"><h2 id="sync">Sync</h2><p>\(syncLine)</p></section>\
        \(notValued)\
        \(RateWarnings.card(rates: rates, providers: providers))\
        <section class="card wide" aria-labelledby="nwt"><h2 id="nwt">Net worth over time</h2>\(netWorthChart)<p><a href="/networth">Breakdown, assets and liabilities</a></p></section>\
        <section class="card wide" aria-labelledby="bud"><h2 id="bud">Budgets this month</h2>\
        \(budgetRows.isEmpty ? HTML("<p class=\"empty\">No budgets yet (<code>ledgerly budget set</code>).</p>") : HTML("<ul class=\"list\">\(budgetRows)</ul>"))</section>\
        <section class="card wide" aria-labelledby="cf"><h2 id="cf">Cash flow, last 12 months</h2>\(BarChart.svg(months, title: "Income and expenses by month", names: ("Income", "Expenses"), currency: cashFlow.baseCurrency ?? base))</section>\
        <section class="card wide" aria-labelledby="al"><h2 id="al">Recent alerts</h2>\
        \(alertRows.isEmpty ? HTML("<p class=\"empty\">No alerts.</p>") : HTML("<ul class=\"list\">\(alertRows)</ul>"))</section>\
        </div>
        """
        return WebResponse.html(PageLayout.page(title: "Dashboard", current: "/", live: true, content))
    }
}
