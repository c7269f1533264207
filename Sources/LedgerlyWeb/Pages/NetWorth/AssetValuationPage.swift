import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/networth/assets/ID`: one manual asset, its valuations, and a form adding a valuation
/// (`asset.revalue`, as `ledgerly asset revalue ASSET VALUE --date --notes` sends it): a dated
/// value that counts from its day on, earlier ones kept. The form carries an idempotency key;
/// a refusal is shown beside the field the store names, with what was typed kept (D574).
struct AssetValuationPage {
    let store: WebStore

    /// What the form holds, as typed.
    struct Input: Sendable, Equatable {
        var value = "", date = "", notes = ""
        init() {}
        init(_ form: FormFields) {
            value = form["value"] ?? ""
            date = form["date"] ?? ""
            notes = form["notes"] ?? ""
        }
    }

    func show(id text: String, session: WebSession) async throws -> Response {
        try await page(id: text, input: Input(), session: session, errors: [:])
    }

    func save(id text: String, _ form: FormFields, session: WebSession) async throws -> Response {
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        let input = Input(form)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        do {
            let date = input.date.trimmingWhitespace, notes = input.notes.trimmingWhitespace
            _ = try await store.write(ManualAssetRevalueRequest(id: id, value: input.value.trimmingWhitespace, date: date.isEmpty ? nil : date, notes: notes.isEmpty ? nil : notes), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await page(id: text, input: input, session: session, errors: [StoreFieldMapping.assetRevalue.formField(forStoreField: body.field): body.message],
                                  status: .unprocessableContent)
        }
        return WebResponse.seeOther("/networth#asset-\(id)")
    }

    private func page(id text: String, input: Input, session: WebSession, errors: [String: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        let asset: ManualAssetRecord
        do {
            asset = try await store.read(ManualAssetGetRequest(id: id))
        } catch {
            guard case .rejected(let body) = error, body.code == .notFound else { throw error }
            throw HTTPError(.notFound)
        }
        let history = (asset.valuations ?? []).reversed().map { valuation -> HTML in
            "<tr><th scope=\"row\">\(valuation.date)</th><td class=\"num\">\(valuation.value)</td><td>\(valuation.notes ?? "")</td></tr>"
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let content: HTML = """
        <section class="card"><p class="figure" id="asset-value">\(asset.value) \(asset.currency)</p><p class="muted">since \(asset.valuedOn) · \(asset.assetType.rawValue)</p></section>\
        <section class="card" aria-labelledby="val-form"><h2 id="val-form">Add a valuation</h2>\(FormSupport.error(errors["_form"]))\
        <form method="post" action="/networth/assets/\(asset.id)" class="stack" novalidate>\(FormSupport.hidden(session))\
        \(field("value", "Value (\(asset.currency))", "<input id=\"value\" name=\"value\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.value)\" required>", hint: "Zero or more, in the asset's currency."))\
        \(field("date", "From the day", "<input id=\"date\" name=\"date\" type=\"date\" value=\"\(input.date)\">", hint: "It counts from this day on; earlier values stay. Empty for today."))\
        \(field("notes", "Notes", "<input id=\"notes\" name=\"notes\" autocomplete=\"off\" value=\"\(input.notes)\">", hint: "Where the figure comes from."))\
        <div><button type="submit">Add valuation</button></div></form></section>\
        <section class="card" aria-labelledby="val-history"><h2 id="val-history">Valuations</h2><div class="scroll"><table id="valuations">\
        <thead><tr><th scope="col">From</th><th scope="col" class="num">Value</th><th scope="col">Notes</th></tr></thead><tbody>\(history)</tbody></table></div>\
        <p><a href="/networth#asset-\(asset.id)">Back to net worth</a></p></section>
        """
        return WebResponse.html(PageLayout.page(title: asset.name, current: "/networth", live: false, content), status: status)
    }
}
