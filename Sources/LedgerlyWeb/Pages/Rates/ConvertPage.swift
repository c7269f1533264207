import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/convert?amount=100&from=USD&to=EUR&day=2026-03-01`: the converter. A GET with the fields in
/// the address, so a conversion is a link. It sends the `convert` request `ledgerly convert`
/// sends, as a preview, so opening or reloading the link does not add to the conversion
/// history (D519); the result, the rate used and where that rate comes from are shown.
struct ConvertPage {
    let store: WebStore

    func render(query: FormFields) async throws -> Response {
        let amount = query["amount"] ?? "", from = query["from"] ?? "", to = query["to"] ?? "", day = query["day"] ?? ""
        var errors: [String: String] = [:]
        var result: HTML = .empty
        var status: HTTPResponse.Status = .ok
        if query["amount"] != nil || query["from"] != nil {
            do {
                let converted = try await store.write(ConvertRequest(amount: amount.trimmingWhitespace, from: from.trimmingWhitespace, to: to.isEmpty ? nil : to.trimmingWhitespace,
                                                                     at: day.isEmpty ? nil : day, preview: true), key: UUID().uuidString.lowercased())
                let snapshot = converted.snapshot
                let origin = snapshot.override ? "one-off rate" : [snapshot.source, snapshot.profileName].compactMap { $0 }.joined(separator: ", ")
                let warning: HTML = converted.warning.map { "<p class=\"notice\">\($0)</p>" } ?? .empty
                result = """
                <section class="card" aria-labelledby="res"><h2 id="res">Result</h2>\
                <p class="figure" id="convert-result"><span class="num">\(converted.amount) \(converted.from)</span> = <strong class="num" id="convert-to">\(converted.result) \(converted.to)</strong></p>\
                <p id="convert-rate">at <span class="num">\(snapshot.rate)</span> \(snapshot.quote) per \(snapshot.base) (\(origin), as of \(snapshot.asOf))\(snapshot.stale ? ", stale when used" : "")</p>\
                \(warning)</section>
                """
            } catch {
                guard case .rejected(let body) = error else { throw error }
                errors[StoreFieldMapping.convert.formField(forStoreField: body.field)] = body.message
                status = .unprocessableContent
            }
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let content: HTML = """
        \(FormSupport.error(errors["_form"]))\
        <form method="get" action="/convert" class="stack card" novalidate>\
        \(field("amount", "Amount", "<input id=\"amount\" name=\"amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(amount)\" required>"))\
        \(field("from", "From currency", "<input id=\"from\" name=\"from\" autocomplete=\"off\" maxlength=\"12\" value=\"\(from)\" required>"))\
        \(field("to", "To currency", "<input id=\"to\" name=\"to\" autocomplete=\"off\" maxlength=\"12\" value=\"\(to)\">", hint: "Empty for the base currency."))\
        \(field("day", "Day", "<input id=\"day\" name=\"day\" type=\"date\" value=\"\(day)\">", hint: "The rate in force that day; empty for now."))\
        <div><button type="submit">Convert</button></div></form>\(result)\
        <p class="muted">Rates of the active exchange mode's profile; <a href="/rates">see and set rates</a>. Conversions made here are not kept in <code>ledgerly convert --history</code>.</p>
        """
        return WebResponse.html(PageLayout.page(title: "Convert", current: "/convert", live: false, content), status: status)
    }
}
