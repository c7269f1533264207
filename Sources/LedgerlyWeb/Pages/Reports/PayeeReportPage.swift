import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/reports/payees?from=2026-01-01&to=2026-06-30&kind=income&limit=20`: where the money goes
/// (or, with income, comes from), by the transactions' notes: `report.payees`, the request
/// `ledgerly report payees --from --to --income --limit` sends, its figures as the store gives
/// them (D571). The notes are what people typed: shown escaped, as every text.
struct PayeeReportPage {
    let store: WebStore

    func render(query: FormFields) async throws -> Response {
        let from = query.trimmed("from") ?? "", to = query.trimmed("to") ?? "", limitText = query.trimmed("limit") ?? ""
        let income = query["kind"] == "income"
        var errors: [String: String] = [:]
        var report: PayeeReport?
        let limit = Int(limitText)
        if !limitText.isEmpty && limit == nil {
            errors["limit"] = "How many: a whole number from 1 to 1000."
        } else {
            do {
                report = try await store.read(PayeeReportRequest(from: from.isEmpty ? nil : from, to: to.isEmpty ? nil : to, kind: income ? .income : .expense, limit: limit))
            } catch {
                guard case .rejected(let body) = error else { throw error }
                errors[StoreFieldMapping.payeeReport.formField(forStoreField: body.field)] = body.message
            }
        }
        func field(_ name: String, _ label: String, _ control: HTML) -> HTML {
            "<div><label for=\"\(name)\">\(label)</label>\(control)\(FormSupport.error(errors[name]))</div>"
        }
        let kinds: HTML = income ? "<option value=\"expense\">Spending</option><option value=\"income\" selected>Income</option>"
            : "<option value=\"expense\" selected>Spending</option><option value=\"income\">Income</option>"
        let form: HTML = """
        <form class="filters" method="get" action="/reports/payees" role="search" aria-label="Range">\
        \(field("from", "From", "<input id=\"from\" name=\"from\" type=\"date\" value=\"\(from)\">"))\
        \(field("to", "To", "<input id=\"to\" name=\"to\" type=\"date\" value=\"\(to)\">"))\
        \(field("kind", "Show", "<select id=\"kind\" name=\"kind\">\(kinds)</select>"))\
        \(field("limit", "How many", "<input id=\"limit\" name=\"limit\" inputmode=\"numeric\" placeholder=\"10\" value=\"\(limitText)\">"))\
        <div><button type="submit">Show</button></div></form>\(FormSupport.error(errors["_form"]))
        """
        let body: HTML = report.map(Self.table) ?? .empty
        let content: HTML = "\(ReportTabs.html(current: "/reports/payees"))\(form)\(body)"
        return WebResponse.html(PageLayout.page(title: "Payees", current: "/reports/payees", live: true, content), status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    static func table(_ report: PayeeReport) -> HTML {
        guard !report.payees.isEmpty else { return "<p class=\"empty\" id=\"report-empty\">No transactions with notes in that range.</p>" }
        let base = report.baseCurrency ?? ""
        let largest = report.payees.compactMap { ChartFigures.decimal($0.total) }.max() ?? 0
        let rows = report.payees.map { payee -> HTML in
            let share = ReportShare.tenths(ChartFigures.decimal(payee.total) ?? 0, of: largest)
            let waiting: HTML = payee.uncounted == 0 ? .empty : " <span class=\"muted\">(\(payee.uncounted) not counted yet: no rate)</span>"
            return """
            <tr><th scope="row" class="payee">\(payee.payee)\(waiting)</th><td class="num count">\(payee.count)</td><td class="num total">\(payee.total)</td>\
            <td class="bar-cell">\(ShareBar.svg(tenths: share, label: "\(payee.payee): \(ReportShare.text(tenths: share)) % of the largest"))</td></tr>
            """
        }
        let who = report.kind == .income ? "From" : "Payee"
        return """
        <section class="card" aria-labelledby="payees-title"><h2 id="payees-title">\(report.kind == .income ? "Where income comes from" : "Where the money goes"), in \(base)</h2>\
        <div class="scroll" role="region" aria-label="Payees" tabindex="0"><table id="payees">\
        <thead><tr><th scope="col">\(who)</th><th scope="col" class="num">Count</th><th scope="col" class="num">Total</th><th scope="col"><span class="muted">Of the largest</span></th></tr></thead>\
        <tbody>\(rows)</tbody></table></div>\
        <p class="muted">By the transactions' notes (notes differing only in case count together); transfers and liability payments are not spending.</p></section>
        """
    }
}
