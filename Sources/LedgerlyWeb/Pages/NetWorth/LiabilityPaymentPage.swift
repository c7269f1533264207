import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/networth/liabilities/ID`: one liability, its history, and a form paying it from a wallet
/// (`liability.pay`, as `ledgerly liability pay LIABILITY AMOUNT --from WALLET --wallet-amount
/// --date --notes` sends it): an expense in the wallet, counted like a transfer, and a payment
/// that lowers the balance. The form carries an idempotency key; a refusal is shown beside the
/// field the store names, with what was typed kept (D574).
struct LiabilityPaymentPage {
    let store: WebStore

    /// What the form holds, as typed.
    struct Input: Sendable, Equatable {
        var amount = "", wallet = "", walletAmount = "", date = "", notes = ""
        init() {}
        init(_ form: FormFields) {
            amount = form["amount"] ?? ""
            wallet = form["wallet"] ?? ""
            walletAmount = form["wallet_amount"] ?? ""
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
        guard let walletId = Int64(input.wallet) else {
            return try await page(id: text, input: input, session: session, errors: ["wallet": "Choose the wallet it is paid from."], status: .unprocessableContent)
        }
        do {
            let walletAmount = input.walletAmount.trimmingWhitespace, date = input.date.trimmingWhitespace, notes = input.notes.trimmingWhitespace
            _ = try await store.write(LiabilityPayRequest(id: id, walletId: walletId, amount: input.amount.trimmingWhitespace, walletAmount: walletAmount.isEmpty ? nil : walletAmount,
                                                          date: date.isEmpty ? nil : date, notes: notes.isEmpty ? nil : notes), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await page(id: text, input: input, session: session, errors: [StoreFieldMapping.liabilityPay.formField(forStoreField: body.field): body.message],
                                  status: .unprocessableContent)
        }
        return WebResponse.seeOther("/networth#liability-\(id)")
    }

    /// Every wallet's name, archived ones too, for the history (a payment from a wallet archived
    /// since is named, as `/networth` names it, not "wallet 3"), and the wallets a payment may
    /// come from now: the open ones.
    static func wallets(_ all: [WalletRecord]) -> (names: [Int64: String], payable: [WalletRecord]) {
        (Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.name) }), all.filter { !$0.archived })
    }

    private func page(id text: String, input: Input, session: WebSession, errors: [String: String], status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        let liability: LiabilityRecord
        do {
            liability = try await store.read(LiabilityGetRequest(id: id))
        } catch {
            guard case .rejected(let body) = error, body.code == .notFound else { throw error }
            throw HTTPError(.notFound)
        }
        let (names, wallets) = Self.wallets(try await store.read(WalletListRequest(includeArchived: true)).wallets)
        let history = (liability.history ?? []).reversed().map { entry -> HTML in
            let what: String = switch entry.kind {
            case .balance: "balance set"
            case .payment: "paid" + (entry.walletId.map { " from \(names[$0] ?? "wallet \($0)")" } ?? "")
            }
            return "<tr><th scope=\"row\">\(entry.date)</th><td>\(what)</td><td class=\"num\">\(entry.amount)</td><td class=\"num\">\(entry.balanceAfter)</td><td>\(entry.notes ?? "")</td></tr>"
        }
        let options = [HTML("<option value=\"\">Choose…</option>")] + wallets.map { wallet -> HTML in
            let selected: HTML = String(wallet.id) == input.wallet ? " selected" : .empty
            return "<option value=\"\(wallet.id)\"\(selected)>\(wallet.name) (\(wallet.currency))</option>"
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let content: HTML = """
        <section class="card"><p class="figure" id="liability-balance">\(liability.balance) \(liability.currency)</p><p class="muted">owed since \(liability.balanceOn) · \(liability.liabilityType.rawValue)</p></section>\
        <section class="card" aria-labelledby="pay-form"><h2 id="pay-form">Record a payment</h2>\(FormSupport.error(errors["_form"]))\
        <form method="post" action="/networth/liabilities/\(liability.id)" class="stack" novalidate>\(FormSupport.hidden(session))\
        \(field("amount", "Amount paid (\(liability.currency))", "<input id=\"amount\" name=\"amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.amount)\" required>", hint: "Positive, at most the balance on the day."))\
        \(field("wallet", "From wallet", "<select id=\"wallet\" name=\"wallet\" required>\(options)</select>"))\
        \(field("wallet_amount", "What left the wallet", "<input id=\"wallet_amount\" name=\"wallet_amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.walletAmount)\">", hint: "Only for a wallet in another currency; empty converts at the day's rate."))\
        \(field("date", "Day", "<input id=\"date\" name=\"date\" type=\"date\" value=\"\(input.date)\">", hint: "Empty for today."))\
        \(field("notes", "Notes", "<input id=\"notes\" name=\"notes\" autocomplete=\"off\" value=\"\(input.notes)\">", hint: "Also on the wallet's transaction."))\
        <div><button type="submit">Record payment</button></div></form>\
        <p class="muted">A payment is no spending (in no category, budget or payee report) and leaves net worth as it was: the wallet and the debt fall by the same amount. It cannot be edited or deleted on its own; correct a mistake with <code>ledgerly liability revalue</code>.</p></section>\
        <section class="card" aria-labelledby="pay-history"><h2 id="pay-history">History</h2><div class="scroll"><table id="liability-history">\
        <thead><tr><th scope="col">Day</th><th scope="col">What</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Balance after</th><th scope="col">Notes</th></tr></thead><tbody>\(history)</tbody></table></div>\
        <p><a href="/networth#liability-\(liability.id)">Back to net worth</a></p></section>
        """
        return WebResponse.html(PageLayout.page(title: liability.name, current: "/networth", live: false, content), status: status)
    }
}
