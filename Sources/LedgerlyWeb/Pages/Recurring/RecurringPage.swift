import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/recurring`: every recurring transaction as `ledgerly recurring list` shows it
/// (`recurring.list`: amount, kind, schedule, posted or reminded, next run, paused), with the two
/// occurrences after the next run, and a button that pauses or resumes it (`recurring.pause`, as
/// `ledgerly recurring pause|resume` sends it). Each button is a small form with its own
/// idempotency key; a refusal is shown beside the rule it is about (D581).
struct RecurringPage {
    let store: WebStore

    func show(session: WebSession) async throws -> Response {
        try await page(session: session, errors: [:])
    }

    func pause(id text: String, _ form: FormFields, session: WebSession) async throws -> Response {
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        let paused: Bool
        switch form["paused"] {
        case "true": paused = true
        case "false": paused = false
        default: return try await page(session: session, errors: [id: "Say whether to pause or resume (reload the page and use its button)."], status: .unprocessableContent)
        }
        do {
            _ = try await store.write(RecurringPauseRequest(id: id, paused: paused), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await page(session: session, errors: [id: body.message], status: .unprocessableContent)
        }
        return WebResponse.seeOther("/recurring#recurring-\(id)")
    }

    /// "every month", "every 2 weeks": the words `ledgerly recurring list` uses.
    static func every(_ record: RecurringRecord) -> String {
        let unit = switch record.frequency {
        case .daily: "day"
        case .weekly: "week"
        case .monthly: "month"
        case .yearly: "year"
        }
        return record.every == 1 ? "every \(unit)" : "every \(record.every) \(unit)s"
    }

    /// The refusals about rules the list no longer holds (deleted meanwhile, e.g. by the CLI):
    /// they have no row to stand beside, so the page shows them above the list instead of
    /// answering 422 with no message at all.
    static func unplaced(_ errors: [Int64: String], listed: [RecurringRecord]) -> [String] {
        let ids = Set(listed.map(\.id))
        return errors.filter { !ids.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
    }

    private func page(session: WebSession, errors: [Int64: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        let rules = try await store.read(RecurringListRequest()).recurring
        let elsewhere = Self.unplaced(errors, listed: rules).map { FormSupport.error($0) }
        let wallets = try await store.read(WalletListRequest(includeArchived: true)).wallets
        let walletsById = Dictionary(uniqueKeysWithValues: wallets.map { ($0.id, $0) })
        let rows = rules.map { rule -> HTML in
            let wallet = walletsById[rule.template.walletId]
            let currency = rule.template.currency ?? wallet?.currency ?? ""
            let mode = rule.mode == .post ? "posted" : "reminded"
            let next: HTML
            if let run = rule.nextRun {
                let later = RecurringSchedule.following(rule, count: 2)
                let then: HTML = later.isEmpty ? .empty : HTML(", then \(later.joined(separator: ", "))")
                next = rule.paused ? "Next <span class=\"next-run\">\(run)</span> (paused: occurrences that fall due while paused are skipped)" : "Next <span class=\"next-run\">\(run)</span>\(then)"
            } else {
                next = "Ended"
            }
            let state: HTML = rule.paused ? " <strong class=\"paused\">paused</strong>" : .empty
            let button: HTML = rule.paused
                ? "<input type=\"hidden\" name=\"paused\" value=\"false\"><button type=\"submit\">Resume</button>"
                : "<input type=\"hidden\" name=\"paused\" value=\"true\"><button type=\"submit\" class=\"secondary\">Pause</button>"
            let end: HTML = rule.endDate.map { HTML(" to \($0)") } ?? .empty
            return """
            <li id="recurring-\(rule.id)" data-recurring="\(rule.id)"><p><strong>\(rule.name)</strong>\(state) \
            <span class="num">\(rule.template.kind == .income ? "+" : "-")\(rule.template.amount) \(currency)</span><br>\
            <span class="muted">\(Self.every(rule)) from \(rule.startDate)\(end) · \(rule.template.kind.rawValue), \(mode) · \(wallet?.name ?? "wallet \(rule.template.walletId)")</span><br>\
            \(next)</p>\
            <form method="post" action="/recurring/\(rule.id)/pause">\(FormSupport.hidden(session))\(button)</form>\(FormSupport.error(errors[rule.id]))</li>
            """
        }
        let content: HTML = """
        <section class="card" aria-labelledby="rec"><h2 id="rec">Recurring transactions</h2>\(elsewhere)\
        \(rows.isEmpty ? HTML("<p class=\"empty\">No recurring transactions. Add one: <code>ledgerly recurring add Rent --wallet Checking --amount 1200</code>.</p>") : HTML("<ul class=\"list\" id=\"recurring\">\(rows)</ul>"))\
        <p class="muted">ledgerly-alerts posts (or, for a reminder, announces) each occurrence once when it falls due. Pausing stops that; resuming continues from the next occurrence not yet past.</p></section>
        """
        return WebResponse.html(PageLayout.page(title: "Recurring", current: "/recurring", live: true, content), status: status)
    }
}
