import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/transactions/new` and `/transactions/ID`: add, edit and delete an expense, an income or a
/// transfer. The store checks everything; its refusal is shown beside the field it names, with
/// what was typed kept. Each form carries an idempotency key, so a double submit records one
/// transaction (D511).
struct TransactionFormPage {
    let store: WebStore

    func new(session: WebSession, query: FormFields) async throws -> Response {
        var input = TransactionInput()
        input.date = WebCalendar.today()
        input.wallet = query["wallet"] ?? ""
        return try await form(title: "Add a transaction", action: "/transactions/new", input: input, session: session, errors: [:], record: nil)
    }

    func create(_ form: FormFields, session: WebSession) async throws -> Response {
        let input = TransactionInput(form)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        var errors: [String: String] = [:]
        guard let walletId = Int64(input.wallet) else {
            errors["wallet"] = "Choose a wallet."
            return try await self.form(title: "Add a transaction", action: "/transactions/new", input: input, session: session, errors: errors, record: nil, status: .unprocessableContent)
        }
        do {
            switch input.kind {
            case .transfer:
                guard let toId = Int64(input.toWallet) else {
                    errors["to_wallet"] = "Choose the wallet the money goes to."
                    return try await self.form(title: "Add a transaction", action: "/transactions/new", input: input, session: session, errors: errors, record: nil, status: .unprocessableContent)
                }
                _ = try await store.write(TransferCreateRequest(fromWalletId: walletId, toWalletId: toId, amount: input.amount, toAmount: input.toAmount.isEmpty ? nil : input.toAmount,
                                                                date: input.date, notes: input.notesOrNil, tags: input.tagList.isEmpty ? nil : input.tagList), key: key)
            case .expense, .income:
                _ = try await store.write(TransactionCreateRequest(kind: input.kind == .income ? .income : .expense, walletId: walletId, amount: input.amount,
                                                                   currency: input.currency.isEmpty ? nil : input.currency, categoryId: Int64(input.category),
                                                                   notes: input.notesOrNil, date: input.date, tags: input.tagList.isEmpty ? nil : input.tagList), key: key)
            }
        } catch let error as ClientError {
            return try await refused(error, title: "Add a transaction", action: "/transactions/new", input: input, session: session, record: nil)
        }
        return WebResponse.seeOther("/wallets/\(walletId)")
    }

    func edit(id text: String, session: WebSession) async throws -> Response {
        let record = try await lookUp(text)
        return try await form(title: "Transaction \(record.id)", action: "/transactions/\(record.id)", input: TransactionInput(record), session: session, errors: [:], record: record)
    }

    func update(id text: String, _ form: FormFields, session: WebSession) async throws -> Response {
        let record = try await lookUp(text)
        let input = TransactionInput(form)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        if input.removesCategory(of: record) {
            // tx.update keeps the category when none is sent: saving would silently keep it.
            return try await self.form(title: "Transaction \(record.id)", action: "/transactions/\(record.id)", input: input, session: session,
                                       errors: ["category": "A category can be changed here but not removed; choose one."], record: record, status: .unprocessableContent)
        }
        var request = TransactionUpdateRequest(id: record.id, notes: input.notes, date: input.date, tags: input.tagList)
        if record.transfer == nil {
            // A transfer's legs take only notes, date and tags (tx.update); the rest is for the others.
            request.kind = input.kind == .income ? .income : .expense
            request.walletId = Int64(input.wallet)
            request.amount = input.amount
            request.categoryId = Int64(input.category)
        }
        do {
            _ = try await store.write(request, key: key)
        } catch {
            return try await refused(error, title: "Transaction \(record.id)", action: "/transactions/\(record.id)", input: input, session: session, record: record)
        }
        return WebResponse.seeOther("/wallets/\(record.walletId)")
    }

    func delete(id text: String, _ form: FormFields, session: WebSession) async throws -> Response {
        let record = try await lookUp(text)
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        _ = try await store.write(TransactionDeleteRequest(id: record.id), key: key)
        return WebResponse.seeOther("/wallets/\(record.walletId)")
    }

    private func lookUp(_ text: String) async throws -> TransactionRecord {
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        do {
            return try await store.read(TransactionGetRequest(id: id))
        } catch {
            if error.errorCode == .notFound { throw HTTPError(.notFound) }
            throw error
        }
    }

    /// The store refused: the form again, the message beside the field it names (or above the
    /// form when it names none), status 422.
    private func refused(_ error: ClientError, title: String, action: String, input: TransactionInput, session: WebSession, record: TransactionRecord?) async throws -> Response {
        guard case .rejected(let body) = error else { throw error }
        let field = TransactionInput.formField(forStoreField: body.field) ?? "_form"
        return try await form(title: title, action: action, input: input, session: session, errors: [field: body.message], record: record, status: .unprocessableContent)
    }

    private func form(title: String, action: String, input: TransactionInput, session: WebSession, errors: [String: String], record: TransactionRecord?,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        let wallets = try await store.read(WalletListRequest()).wallets
        let categories = try await store.read(CategoryListRequest()).categories
        let isTransfer = record?.transfer != nil
        /// `blank`: the label of the empty choice; nil for none (a category cannot be removed).
        func options(_ selected: String, _ items: [(String, String)], blank: String?) -> HTML {
            HTML.join((blank.map { [HTML("<option value=\"\">\($0)</option>")] } ?? []) + items.map { value, name in
                value == selected ? HTML("<option value=\"\(value)\" selected>\(name)</option>") : HTML("<option value=\"\(value)\">\(name)</option>")
            })
        }
        let walletItems = wallets.map { (String($0.id), "\($0.name) (\($0.currency))") }
        let kinds = TransactionInput.Kind.allCases.filter { record == nil || ($0 == .transfer) == isTransfer }.map { kind -> HTML in
            let checked: HTML = kind == input.kind ? " checked" : .empty
            return "<label><input type=\"radio\" name=\"kind\" value=\"\(kind.rawValue)\"\(checked)> \(kind.rawValue.capitalized)</label>"
        }
        func field(_ name: String, _ label: String, _ control: HTML, hint: String? = nil) -> HTML {
            let hintHTML: HTML = hint.map { "<small class=\"muted\">\($0)</small>" } ?? .empty
            return "<div><label for=\"\(name)\">\(label)</label>\(control)\(hintHTML)\(FormSupport.error(errors[name]))</div>"
        }
        let locked: HTML = isTransfer ? " disabled" : .empty
        var fields: [HTML] = [
            "<fieldset><legend>Kind</legend>\(kinds)\(FormSupport.error(errors["kind"]))</fieldset>",
            field("wallet", "Wallet (from, for a transfer)", "<select id=\"wallet\" name=\"wallet\" required\(locked)>\(options(input.wallet, walletItems, blank: "Choose…"))</select>"),
            field("amount", "Amount", "<input id=\"amount\" name=\"amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.amount)\" required\(locked)>"),
        ]
        if record == nil {
            fields.append(field("to_wallet", "To wallet (transfers only)", "<select id=\"to_wallet\" name=\"to_wallet\">\(options(input.toWallet, walletItems, blank: "—"))</select>"))
            fields.append(field("to_amount", "Amount arriving (transfers across currencies)", "<input id=\"to_amount\" name=\"to_amount\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.toAmount)\">"))
            fields.append(field("currency", "Currency, when not the wallet's", "<input id=\"currency\" name=\"currency\" autocomplete=\"off\" maxlength=\"12\" value=\"\(input.currency)\">"))
        }
        fields += [
            field("date", "Date", "<input id=\"date\" name=\"date\" type=\"date\" value=\"\(input.date)\" required>"),
            field("category", "Category", "<select id=\"category\" name=\"category\"\(locked)>\(options(input.category, categories.map { (String($0.id), $0.path) }, blank: record?.categoryId == nil ? "No category" : nil))</select>"),
            field("tags", "Tags", "<input id=\"tags\" name=\"tags\" autocomplete=\"off\" value=\"\(input.tags)\">", hint: "Separated by commas."),
            field("notes", "Notes", "<textarea id=\"notes\" name=\"notes\">\(input.notes)</textarea>"),
        ]
        let deletion: HTML = record.map { record in
            """
            <form method="post" action="/transactions/\(record.id)/delete" class="stack">\(FormSupport.hidden(session))\
            <button type="submit" class="danger">Delete\(record.transfer != nil ? " both legs of this transfer" : "")</button></form>
            """
        } ?? .empty
        let content: HTML = """
        \(FormSupport.error(errors["_form"]))\
        <form method="post" action="\(action)" class="stack" novalidate>\(FormSupport.hidden(session))\(fields)\
        <div><button type="submit">Save</button></div></form>\(deletion)
        """
        return WebResponse.html(PageLayout.page(title: title, current: record == nil ? "/transactions/new" : "", live: false, content), status: status)
    }
}
