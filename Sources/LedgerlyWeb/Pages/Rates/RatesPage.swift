import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/rates`: the rate profiles, the newest rate of every pair in one of them with its age and
/// stale mark (`rates.list`, the figures `ledgerly rates list --json` prints), and a form to set
/// a rate by hand (`rates.set`, as `ledgerly rates set` sends it). The store checks everything;
/// its refusal is shown beside the field it names, with what was typed kept.
struct RatesPage {
    let store: WebStore

    /// What the form holds, as typed.
    struct Input: Sendable {
        var base = "", quote = "", rate = "", day = "", profile = ""
        init() {}
        init(_ form: FormFields) {
            base = form["base"] ?? ""
            quote = form["quote"] ?? ""
            rate = form["rate"] ?? ""
            day = form["day"] ?? ""
            profile = form["profile"] ?? ""
        }
    }

    func show(query: FormFields, session: WebSession) async throws -> Response {
        var input = Input()
        input.profile = query["profile"] ?? ""
        return try await page(input: input, session: session, errors: [:])
    }

    func save(_ form: FormFields, session: WebSession) async throws -> Response {
        let input = Input(form)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        let profileId: Int64?
        if input.profile.isEmpty {
            profileId = nil
        } else if let id = Int64(input.profile) {
            profileId = id
        } else {
            return try await page(input: input, session: session, errors: ["profile": "Choose a profile from the list."], status: .unprocessableContent)
        }
        let reply: RateSetReply
        do {
            reply = try await store.write(RateSetRequest(base: input.base.trimmingWhitespace, quote: input.quote.trimmingWhitespace, rate: input.rate.trimmingWhitespace,
                                                         profileId: profileId, asOf: input.day.isEmpty ? nil : input.day), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await page(input: input, session: session, errors: [StoreFieldMapping.rateSet.formField(forStoreField: body.field): body.message], status: .unprocessableContent)
        }
        return WebResponse.seeOther("/rates?profile=\(reply.rate.profileId)")
    }

    private func page(input: Input, session: WebSession, errors: [String: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        let profiles = try await store.read(RateProfileListRequest()).profiles
        let shown = Int64(input.profile).flatMap { id in profiles.contains { $0.id == id } ? id : nil }
        let list = try await store.read(RateListRequest(profileId: shown))
        let profileRows = profiles.map { profile -> HTML in
            let current: HTML = profile.id == list.profile.id ? " aria-current=\"true\"" : .empty
            let marks = [profile.isDefault ? "default for \(profile.type.rawValue)" : profile.type.rawValue, profile.primarySource].compactMap { $0 }.joined(separator: " · ")
            return "<li><a class=\"row\" href=\"/rates?profile=\(profile.id)\"\(current)><span>\(profile.name)<br><small class=\"muted\">\(marks)</small></span></a></li>"
        }
        // A list rather than a table: six columns do not fit a phone's 360 px.
        let rateRows = list.rates.map { rate -> HTML in
            let age = rate.ageSeconds.map { StalenessPolicy.describe(.seconds($0)) } ?? "—"
            let stale: HTML = rate.stale == true ? " · <strong class=\"stale\">stale</strong>" : .empty
            return """
            <li data-pair="\(rate.base)/\(rate.quote)"><p><strong>\(rate.base)/\(rate.quote)</strong> <span class="num">\(rate.rate)</span> \
            <span class="muted">(inverse <span class="num">\(rate.inverseRate)</span>)</span><br>\
            <span class="muted">\(rate.source)\(rate.customOverride ? " (override)" : "") · as of \(rate.asOf) · \(age) old</span>\(stale)</p></li>
            """
        }
        let table: HTML = rateRows.isEmpty ? "<p class=\"empty\">No rates in this profile yet. Set one below.</p>"
            : "<p class=\"muted\">Newest rate of each pair: units of the second currency per one of the first.</p><ul class=\"list\" id=\"rates-list\">\(rateRows)</ul>"
        let profileOptions = profiles.map { profile -> HTML in
            let selected: HTML = profile.id == list.profile.id ? " selected" : .empty
            return "<option value=\"\(profile.id)\"\(selected)>\(profile.name)</option>"
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let content: HTML = """
        <section class="card" aria-labelledby="prof"><h2 id="prof">Profiles</h2><ul class="list">\(profileRows)</ul></section>\
        <section class="card" aria-labelledby="rates"><h2 id="rates">Rates in \(list.profile.name)</h2>\(table)\
        <p class="muted">Age counts from each rate's own moment (as of), not from when it was fetched. <a href="/convert">Convert an amount</a>.</p></section>\
        <section class="card" aria-labelledby="set"><h2 id="set">Set a rate by hand</h2>\(FormSupport.error(errors["_form"]))\
        <form method="post" action="/rates" class="stack" novalidate>\(FormSupport.hidden(session))\
        \(field("base", "Currency (one unit of it)", "<input id=\"base\" name=\"base\" autocomplete=\"off\" maxlength=\"12\" value=\"\(input.base)\" required>"))\
        \(field("quote", "Worth how many of", "<input id=\"quote\" name=\"quote\" autocomplete=\"off\" maxlength=\"12\" value=\"\(input.quote)\" required>"))\
        \(field("rate", "Rate", "<input id=\"rate\" name=\"rate\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.rate)\" required>", hint: "Units of the second currency per one of the first, e.g. 0.9215."))\
        \(field("day", "Day", "<input id=\"day\" name=\"day\" type=\"date\" value=\"\(input.day)\">", hint: "When it applies; empty for now."))\
        \(field("profile", "Profile", "<select id=\"profile\" name=\"profile\">\(profileOptions)</select>"))\
        <div><button type="submit">Set rate</button></div></form></section>
        """
        return WebResponse.html(PageLayout.page(title: "Rates", current: "/rates", live: false, content), status: status)
    }
}
