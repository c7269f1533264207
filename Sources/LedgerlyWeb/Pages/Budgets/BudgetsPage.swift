import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/budgets`: this month's status of every budget as bars with the 50/80/100 marks (the
/// dashboard's budget bar, from `budget.status`, the figures `ledgerly budget status` prints), and
/// a form to set a category's monthly limit and carry-over (`budget.set`, as `ledgerly budget set`
/// sends it; the change applies from this month on). Refusals go beside the field they name.
struct BudgetsPage {
    let store: WebStore

    /// What the form holds, as typed.
    struct Input: Sendable {
        var category = "", amount = "", carryOver = false
        init() {}
        init(_ form: FormFields) {
            category = form["category"] ?? ""
            amount = form["amount"] ?? ""
            carryOver = form["carry_over"] != nil
        }
    }

    func show(session: WebSession) async throws -> Response {
        try await page(input: Input(), session: session, errors: [:])
    }

    func save(_ form: FormFields, session: WebSession) async throws -> Response {
        let input = Input(form)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        guard let categoryId = Int64(input.category) else {
            return try await page(input: input, session: session, errors: ["category": "Choose a category."], status: .unprocessableContent)
        }
        do {
            // carryOver is always sent: an unticked box turns carry-over off, as the form shows it.
            _ = try await store.write(BudgetSetRequest(categoryId: categoryId, limit: input.amount.trimmingWhitespace, carryOver: input.carryOver), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await page(input: input, session: session, errors: [StoreFieldMapping.budgetSet.formField(forStoreField: body.field): body.message], status: .unprocessableContent)
        }
        return WebResponse.seeOther("/budgets")
    }

    private func page(input: Input, session: WebSession, errors: [String: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        let report = try await store.read(BudgetStatusRequest())
        let categories = try await store.read(CategoryListRequest()).categories.filter { $0.kind == .expense }
        let rows = report.budgets.map { month -> HTML in
            let percent = month.percent.flatMap(ChartFigures.decimal) ?? 0
            let name = month.budget.categoryName
            let carried: HTML = month.budget.carryOver ? " · carried \(month.carried)" : .empty
            return """
            <li data-budget="\(month.budget.id)"><p><strong>\(name)</strong> <span class="num">\(month.spent) of \(month.available) \(report.baseCurrency) · \(month.percent.map { "\($0) %" } ?? "nothing available")</span>\
            <br><span class="muted">limit \(month.limit) \(month.budget.currency)\(carried) · \(month.remaining) left</span></p>\
            \(BudgetBar.svg(percent: percent, label: "\(name): \(month.percent ?? "0") % spent, marks at 50, 80 and 100 %"))</li>
            """
        }
        let options = [HTML("<option value=\"\">Choose…</option>")] + categories.map { category -> HTML in
            let selected: HTML = String(category.id) == input.category ? " selected" : .empty
            return "<option value=\"\(category.id)\"\(selected)>\(category.path)</option>"
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let checked: HTML = input.carryOver ? " checked" : .empty
        let content: HTML = """
        <section class="card" aria-labelledby="bud"><h2 id="bud">\(report.month)</h2>\
        \(rows.isEmpty ? HTML("<p class=\"empty\">No budgets yet. Set one below.</p>") : HTML("<ul class=\"list\">\(rows)</ul>"))</section>\
        <section class="card" aria-labelledby="set"><h2 id="set">Set a monthly limit</h2>\(FormSupport.error(errors["_form"]))\
        <form method="post" action="/budgets" class="stack" novalidate>\(FormSupport.hidden(session))\
        \(field("category", "Category", "<select id=\"category\" name=\"category\" required>\(options)</select>"))\
        \(field("amount", "Limit a month", "<input id=\"amount\" name=\"amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.amount)\" required>", hint: "In the budget's currency (the base currency for a new one), from this month on; earlier months keep theirs."))\
        <div><label><input type="checkbox" name="carry_over" value="1"\(checked)> Carry what is left (or overspent) into the next month</label>\(FormSupport.error(errors["carry_over"]))</div>\
        <div><button type="submit">Set limit</button></div></form></section>
        """
        return WebResponse.html(PageLayout.page(title: "Budgets", current: "/budgets", live: false, content), status: status)
    }
}
