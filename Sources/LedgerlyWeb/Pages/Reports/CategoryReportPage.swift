import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/reports/categories?from=2026-01&to=2026-06&kind=expense&monthly=1&by_currency=1`: spending
/// and income by category, parents with their children rolled up, in total or month by month:
/// `report.categories`, the request `ledgerly report categories --from --to --kind --monthly
/// --by-currency` sends, with its figures as the store gives them (D571). A GET, so a report is
/// a link; a refused range is said beside its field.
struct CategoryReportPage {
    let store: WebStore

    func render(query: FormFields) async throws -> Response {
        let range = MonthRangeQuery(query)
        let kindText = query.trimmed("kind") ?? ""
        let monthly = query["monthly"] != nil, byCurrency = query["by_currency"] != nil
        var errors: [String: String] = [:]
        var report: CategoryReport?
        let kind = CategoryKind(rawValue: kindText)
        if !kindText.isEmpty && kind == nil {
            errors["kind"] = "Spending, income or both."
        } else {
            switch range.bounds(thisMonth: WebCalendar.month(of: WebCalendar.today())) {
            case .refused(let field, let message): errors[field] = message
            case .range(let from, let to):
                do {
                    report = try await store.read(CategoryReportRequest(from: from, to: to, kind: kind, byCurrency: byCurrency))
                } catch {
                    guard case .rejected(let body) = error else { throw error }
                    errors[StoreFieldMapping.reportRange.formField(forStoreField: body.field)] = body.message
                }
            }
        }
        func field(_ name: String, _ label: String, _ control: HTML) -> HTML {
            "<div><label for=\"\(name)\">\(label)</label>\(control)\(FormSupport.error(errors[name]))</div>"
        }
        let kinds = [("", "Spending and income"), ("expense", "Spending"), ("income", "Income")].map { value, title -> HTML in
            value == kindText ? "<option value=\"\(value)\" selected>\(title)</option>" : "<option value=\"\(value)\">\(title)</option>"
        }
        let checked: (Bool) -> HTML = { $0 ? " checked" : .empty }
        let form: HTML = """
        <form class="filters" method="get" action="/reports/categories" role="search" aria-label="Range">\
        \(field("from", "From month", "<input id=\"from\" name=\"from\" type=\"month\" placeholder=\"YYYY-MM\" value=\"\(range.from)\">"))\
        \(field("to", "To month", "<input id=\"to\" name=\"to\" type=\"month\" placeholder=\"YYYY-MM\" value=\"\(range.to)\">"))\
        \(field("months", "Or the last … months", "<input id=\"months\" name=\"months\" inputmode=\"numeric\" value=\"\(range.months)\">"))\
        \(field("kind", "Show", "<select id=\"kind\" name=\"kind\">\(kinds)</select>"))\
        <fieldset><legend>Columns</legend><label><input type="checkbox" name="monthly" value="1"\(checked(monthly))> Month by month</label>\
        <label><input type="checkbox" name="by_currency" value="1"\(checked(byCurrency))> Also by currency</label></fieldset>\
        <div><button type="submit">Show</button></div></form>\(FormSupport.error(errors["_form"]))
        """
        let body: HTML = report.map { Self.tables($0, monthly: monthly, byCurrency: byCurrency) } ?? .empty
        let content: HTML = "\(ReportTabs.html(current: "/reports/categories"))\(form)\(body)"
        return WebResponse.html(PageLayout.page(title: "Spending and income by category", current: "/reports/categories", live: true, content),
                                status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    /// One table per kind: each category (children indented under their parent, whose figures
    /// include theirs), its months when asked, its total, its share of the kind's whole and a bar.
    static func tables(_ report: CategoryReport, monthly: Bool, byCurrency: Bool) -> HTML {
        guard let first = report.months.first, let last = report.months.last, !report.categories.isEmpty else {
            return "<p class=\"empty\" id=\"report-empty\">No income or spending in that range.</p>"
        }
        let base = report.baseCurrency ?? ""
        let uncounted: HTML = report.uncounted == 0 ? .empty
            : "<p class=\"notice\">\(report.uncounted) transactions in this range are not counted yet: they wait for a rate to \(base) (<a href=\"/rates\">set one</a>).</p>"
        let sections = [CategoryKind.expense, .income].compactMap { kind -> HTML? in
            let rows = report.categories.filter { $0.kind == kind }
            guard !rows.isEmpty else { return nil }
            let whole = rows.filter { $0.depth == 0 }.compactMap { ChartFigures.decimal($0.total) }.reduce(0, +)
            let title = kind == .expense ? "Spending" : "Income"
            let monthHeads: [HTML] = monthly ? report.months.map { month -> HTML in "<th scope=\"col\" class=\"num\">\(month)</th>" } : []
            let currencyHead: HTML = byCurrency ? "<th scope=\"col\">In</th>" : .empty
            let barHead: HTML = monthly ? .empty : "<th scope=\"col\"><span class=\"muted\">Share</span></th>"
            let lines = rows.map { row -> HTML in
                let share = ReportShare.tenths(ChartFigures.decimal(row.total) ?? 0, of: whole)
                let name = row.path.split(separator: "/").last.map(String.init) ?? row.path
                let cells: [HTML] = monthly ? zip(report.months, row.months).map { month, amount -> HTML in "<td class=\"num\" data-month=\"\(month)\">\(amount)</td>" } : []
                let currencies: HTML = byCurrency ? "<td>\((row.byCurrency ?? []).map { "\($0.amount) \($0.currency)" }.joined(separator: ", "))</td>" : .empty
                let bar: HTML = monthly ? .empty : "<td class=\"bar-cell\">\(ShareBar.svg(tenths: share, label: "\(row.path): \(ReportShare.text(tenths: share)) % of \(title.lowercased())"))</td>"
                let depth: HTML = row.depth == 0 ? " class=\"top\"" : HTML(trusted: " class=\"depth\(min(row.depth, 3))\"")
                return """
                <tr data-path="\(row.path)" data-kind="\(kind.rawValue)"><th scope="row"\(depth)>\(name)</th>\(cells)\
                <td class="num total">\(row.total)</td><td class="num share">\(ReportShare.text(tenths: share))</td>\(currencies)\(bar)</tr>
                """
            }
            return """
            <section class="card" aria-labelledby="k-\(kind.rawValue)"><h2 id="k-\(kind.rawValue)">\(title)</h2>\
            <div class="scroll" role="region" aria-label="\(title) by category" tabindex="0"><table id="categories-\(kind.rawValue)">\
            <thead><tr><th scope="col">Category</th>\(monthHeads)<th scope="col" class="num">Total</th><th scope="col" class="num">%</th>\(currencyHead)\(barHead)</tr></thead>\
            <tbody>\(lines)</tbody></table></div></section>
            """
        }
        return """
        <p class="muted" id="report-range">\(first) to \(last), in \(base). Parents include their subcategories; split parts count in their own categories; transfers are neither; a refund lowers its category's spending.</p>\
        \(uncounted)<div class="stack-sections">\(sections)</div>
        """
    }
}
