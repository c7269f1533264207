import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/goals`: every saving goal with its progress and pace as `ledgerly goal list` shows them
/// (`goal.list`: saved of target, percent, on track / behind pace / reached, what each month
/// needs to meet the deadline, the auto-fund rule), and a form that puts money towards a goal
/// (`goal.fund`, as `ledgerly goal fund GOAL AMOUNT --from WALLET --date DAY` sends it). The list
/// is live; the form is left alone while someone types in it (D580).
struct GoalsPage {
    let store: WebStore

    /// What the form holds, as typed.
    struct Input: Sendable {
        var goal = "", amount = "", from = "", date = ""
        init() {}
        init(_ form: FormFields) {
            goal = form["goal"] ?? ""
            amount = form["amount"] ?? ""
            from = form["from"] ?? ""
            date = form["date"] ?? ""
        }
    }

    func show(query: FormFields, session: WebSession) async throws -> Response {
        var input = Input()
        input.goal = query["goal"] ?? ""
        return try await page(input: input, session: session, errors: [:])
    }

    func fund(_ form: FormFields, session: WebSession) async throws -> Response {
        let input = Input(form)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        guard let goalId = Int64(input.goal) else {
            return try await page(input: input, session: session, errors: ["goal": "Choose a goal."], status: .unprocessableContent)
        }
        var fromWalletId: Int64?
        if !input.from.isEmpty {
            guard let id = Int64(input.from) else {
                return try await page(input: input, session: session, errors: ["from": "Choose a wallet from the list, or none."], status: .unprocessableContent)
            }
            fromWalletId = id
        }
        let funded: GoalRecord
        do {
            funded = try await store.write(GoalFundRequest(id: goalId, amount: input.amount.trimmingWhitespace, fromWalletId: fromWalletId,
                                                           date: input.date.isEmpty ? nil : input.date.trimmingWhitespace), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await page(input: input, session: session, errors: [StoreFieldMapping.goalFund.formField(forStoreField: body.field): body.message], status: .unprocessableContent)
        }
        return WebResponse.seeOther("/goals#goal-\(funded.id)")
    }

    /// The words `ledgerly goal list` uses for a goal's pace.
    static func pace(_ goal: GoalRecord) -> String {
        goal.status == .achieved ? "reached" : goal.behindPace ? "behind pace" : "on track"
    }

    private func page(input: Input, session: WebSession, errors: [String: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        let goals = try await store.read(GoalListRequest()).goals
        let wallets = try await store.read(WalletListRequest()).wallets.filter { !$0.archived }
        let walletNames = Dictionary(uniqueKeysWithValues: wallets.map { ($0.id, $0.name) })
        let rows = goals.map { goal -> HTML in
            let pace = Self.pace(goal)
            let needed: HTML = goal.monthlyNeeded.map { HTML(" · <span class=\"num\">\($0) \(goal.currency)</span> a month needed") } ?? .empty
            let deadline: HTML = goal.deadline.map { HTML(" · by \($0)") } ?? .empty
            let wallet: HTML = goal.walletId.map { id in HTML(" · saved in \(walletNames[id] ?? "wallet \(id)")") } ?? .empty
            let autoFund: HTML = goal.autoFund.map { rule -> HTML in
                let what = rule.kind == .fixed ? "\(rule.amount ?? "") \(goal.currency)" : "\(rule.percent ?? "") % of last month's income"
                return HTML("<br><span class=\"muted\">Auto-fund: \(what) on day \(rule.dayOfMonth) of each month</span>")
            } ?? .empty
            return """
            <li id="goal-\(goal.id)" data-goal="\(goal.id)"><p><strong>\(goal.name)</strong> \
            <span class="num">\(goal.current) of \(goal.target) \(goal.currency) · \(goal.percent) %</span><br>\
            <span class="pace \(goal.behindPace && goal.status != .achieved ? "behind" : "ok")">\(pace)</span>\(deadline)\(needed)\(wallet)\(autoFund)</p>\
            <progress max="100" value="\(HTML(trusted: Self.progressValue(goal.percent)))" aria-label="\(goal.name): \(goal.percent) % saved">\(goal.percent) %</progress>\
            <p><a href="/goals?goal=\(goal.id)#fund">Put money towards it</a></p></li>
            """
        }
        let goalOptions = [HTML("<option value=\"\">Choose…</option>")] + goals.map { goal -> HTML in
            let selected: HTML = String(goal.id) == input.goal ? " selected" : .empty
            return "<option value=\"\(goal.id)\"\(selected)>\(goal.name) (\(goal.currency))</option>"
        }
        let walletOptions = [HTML("<option value=\"\">None: record it against the goal only</option>")] + wallets.map { wallet -> HTML in
            let selected: HTML = String(wallet.id) == input.from ? " selected" : .empty
            return "<option value=\"\(wallet.id)\"\(selected)>\(wallet.name) (\(wallet.balance) \(wallet.currency))</option>"
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let list: HTML = rows.isEmpty
            ? "<p class=\"empty\">No goals yet. Add one: <code>ledgerly goal add Holiday --target 2400 --deadline 2027-07-01</code>.</p>"
            : "<ul class=\"list\" id=\"goals\">\(rows)</ul>"
        let content: HTML = """
        <section class="card" aria-labelledby="gl" id="goals-part" data-live-part><h2 id="gl">Progress</h2>\(list)\
        <p class="muted">Pace: behind when what is saved is below the straight line from the start to the target at the deadline; the monthly figure is what each month needs from now on.</p></section>\
        <section class="card" aria-labelledby="fundh" id="fund"><h2 id="fundh">Put money towards a goal</h2>\(FormSupport.error(errors["_form"]))\
        <form method="post" action="/goals" class="stack" novalidate>\(FormSupport.hidden(session))\
        \(field("goal", "Goal", "<select id=\"goal\" name=\"goal\" required>\(goalOptions)</select>"))\
        \(field("amount", "Amount", "<input id=\"amount\" name=\"amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.amount)\" required>", hint: "In the goal's currency."))\
        \(field("from", "From wallet", "<select id=\"from\" name=\"from\">\(walletOptions)</select>", hint: "With a wallet, and a goal saved in a wallet, the money is moved there (a transfer)."))\
        \(field("date", "Day", "<input id=\"date\" name=\"date\" type=\"date\" value=\"\(input.date)\">", hint: "Empty for today."))\
        <div><button type="submit">Put it towards the goal</button></div></form></section>
        """
        return WebResponse.html(PageLayout.page(title: "Goals", current: "/goals", live: true, content), status: status)
    }

    /// The store's percent ("42.5") as the progress element's value: the same digits, held to
    /// 0…100 for the bar only (the figure beside it is the store's).
    static func progressValue(_ percent: String) -> String {
        guard let value = ChartFigures.decimal(percent) else { return "0" }
        if value < 0 { return "0" }
        if value > 100 { return "100" }
        return percent.trimmingWhitespace
    }
}

extension StoreFieldMapping {
    /// `goal.fund` from the `/goals` form.
    static let goalFund = StoreFieldMapping(names: ["id": "goal", "fromWalletId": "from"], formFields: ["goal", "amount", "from", "date"])
}
