import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/reports/cashflow?from=2026-01&to=2026-12` (or `?months=12`): income, expenses, net and
/// savings rate per month and in total, as bars and as a table: `report.cashflow`, the request
/// `ledgerly report cashflow --from --to` sends, its figures as the store gives them (D571).
struct CashFlowReportPage {
    let store: WebStore

    func render(query: FormFields) async throws -> Response {
        let range = MonthRangeQuery(query)
        var errors: [String: String] = [:]
        var report: CashFlowReport?
        switch range.bounds(thisMonth: WebCalendar.month(of: WebCalendar.today())) {
        case .refused(let field, let message): errors[field] = message
        case .range(let from, let to):
            do {
                report = try await store.read(CashFlowReportRequest(from: from, to: to))
            } catch {
                guard case .rejected(let body) = error else { throw error }
                errors[StoreFieldMapping.reportRange.formField(forStoreField: body.field)] = body.message
            }
        }
        func field(_ name: String, _ label: String, _ control: HTML) -> HTML {
            "<div><label for=\"\(name)\">\(label)</label>\(control)\(FormSupport.error(errors[name]))</div>"
        }
        let form: HTML = """
        <form class="filters" method="get" action="/reports/cashflow" role="search" aria-label="Range">\
        \(field("from", "From month", "<input id=\"from\" name=\"from\" type=\"month\" placeholder=\"YYYY-MM\" value=\"\(range.from)\">"))\
        \(field("to", "To month", "<input id=\"to\" name=\"to\" type=\"month\" placeholder=\"YYYY-MM\" value=\"\(range.to)\">"))\
        \(field("months", "Or the last … months", "<input id=\"months\" name=\"months\" inputmode=\"numeric\" value=\"\(range.months)\">"))\
        <div><button type="submit">Show</button></div></form>\(FormSupport.error(errors["_form"]))
        """
        let body: HTML = report.map(Self.figures) ?? .empty
        let content: HTML = "\(ReportTabs.html(current: "/reports/cashflow"))\(form)\(body)"
        return WebResponse.html(PageLayout.page(title: "Cash flow", current: "/reports/cashflow", live: true, content), status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    static func figures(_ report: CashFlowReport) -> HTML {
        guard let first = report.months.first, let last = report.months.last else {
            return "<p class=\"empty\" id=\"report-empty\">No income or spending in that range.</p>"
        }
        let base = report.baseCurrency ?? ""
        let groups = report.months.compactMap { month -> BarChart.Group? in
            guard let income = ChartFigures.decimal(month.income), let expenses = ChartFigures.decimal(month.expenses) else { return nil }
            return BarChart.Group(label: month.month, first: income, second: expenses)
        }
        let rows = (report.months + [report.total]).map { month -> HTML in
            let head: HTML = month.month == "total" ? "<th scope=\"row\">Total</th>" : "<th scope=\"row\">\(month.month)</th>"
            return """
            <tr data-month="\(month.month)">\(head)<td class="num income">\(month.income)</td><td class="num expenses">\(month.expenses)</td>\
            <td class="num net">\(month.net)</td><td class="num saved">\(month.savingsRate ?? "–")</td></tr>
            """
        }
        let uncounted: HTML = report.uncounted == 0 ? .empty
            : "<p class=\"notice\">\(report.uncounted) transactions in this range are not counted yet: they wait for a rate to \(base) (<a href=\"/rates\">set one</a>).</p>"
        return """
        <p class="muted" id="report-range">\(first.month) to \(last.month), in \(base). Transfers are neither income nor expenses; a refund lowers expenses.</p>\(uncounted)\
        <section class="card" aria-labelledby="cf-chart"><h2 id="cf-chart">Income and expenses</h2>\(BarChart.svg(groups, title: "Income and expenses by month", names: ("Income", "Expenses"), currency: base))</section>\
        <section class="card" aria-labelledby="cf-table"><h2 id="cf-table">Month by month</h2>\
        <div class="scroll" role="region" aria-label="Cash flow by month" tabindex="0"><table id="cashflow">\
        <thead><tr><th scope="col">Month</th><th scope="col" class="num">Income</th><th scope="col" class="num">Expenses</th><th scope="col" class="num">Net</th><th scope="col" class="num">Saved %</th></tr></thead>\
        <tbody>\(rows)</tbody></table></div><p class="muted">Saved %: net as a share of income (none without income).</p></section>
        """
    }
}
