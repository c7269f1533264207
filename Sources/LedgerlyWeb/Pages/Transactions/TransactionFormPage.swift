import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/transactions/new` and `/transactions/ID`: add, edit and delete an expense, an income or a
/// transfer. The store checks everything; its refusal is shown beside the field it names, with
/// what was typed kept. Each form carries an idempotency key, so a double submit records one
/// transaction (D511). An expense or income can be split over categories, line by line (numbered
/// fields, "More split lines" sends the form back with more, no JavaScript needed), the store
/// checking the parts as for the CLI's `tx add --split` and its refusal shown beside the line it
/// names (D605, D606); one in another currency can carry the one-off rate the bank charged (D607).
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
        if form["more_lines"] != nil {
            return try await self.form(title: "Add a transaction", action: "/transactions/new", input: input, session: session, errors: [:], record: nil,
                                       extraLines: TransactionInput.blankSplitLines)
        }
        var errors = Self.splitProblems(input)
        if input.kind == .transfer && !input.rate.isEmpty {
            errors["rate"] = "A transfer takes the amount arriving instead of a rate."
        }
        guard errors.isEmpty else {
            return try await self.form(title: "Add a transaction", action: "/transactions/new", input: input, session: session, errors: errors, record: nil, status: .unprocessableContent)
        }
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
                let parts = input.splitParts ?? []
                _ = try await store.write(TransactionCreateRequest(kind: input.kind == .income ? .income : .expense, walletId: walletId, amount: input.amount,
                                                                   currency: input.currency.isEmpty ? nil : input.currency, rate: input.rate.isEmpty ? nil : input.rate,
                                                                   categoryId: Int64(input.category), notes: input.notesOrNil, date: input.date,
                                                                   tags: input.tagList.isEmpty ? nil : input.tagList, splits: parts.isEmpty ? nil : parts), key: key)
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
        if form["more_lines"] != nil {
            return try await self.form(title: "Transaction \(record.id)", action: "/transactions/\(record.id)", input: input, session: session, errors: [:], record: record,
                                       extraLines: TransactionInput.blankSplitLines)
        }
        let problems = record.transfer == nil ? Self.splitProblems(input) : [:]
        guard problems.isEmpty else {
            return try await self.form(title: "Transaction \(record.id)", action: "/transactions/\(record.id)", input: input, session: session,
                                       errors: problems, record: record, status: .unprocessableContent)
        }
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
            // Lines sent replace the parts; no line left on a split transaction removes them
            // (tx.update keeps the parts when none are sent) (D608).
            let parts = input.splitParts ?? []
            request.splits = !parts.isEmpty || !record.splits.isEmpty ? parts : nil
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

    /// What the form refuses before asking the store: a split line without a category (a part
    /// needs one, and there is no id to send) beside that line; split lines on a transfer.
    private static func splitProblems(_ input: TransactionInput) -> [String: String] {
        if input.kind == .transfer && !input.filledSplitLines.isEmpty {
            return ["splits": "A transfer is not split; clear these lines or choose expense or income."]
        }
        if let line = input.missingCategoryLine { return ["split_\(line)": "Choose a category for this line."] }
        return [:]
    }

    /// The store refused: the form again, the message beside the field it names (or above the
    /// form when it names none), status 422.
    private func refused(_ error: ClientError, title: String, action: String, input: TransactionInput, session: WebSession, record: TransactionRecord?) async throws -> Response {
        guard case .rejected(let body) = error else { throw error }
        let field = input.errorField(forStoreField: body.field) ?? "_form"
        return try await form(title: title, action: action, input: input, session: session, errors: [field: body.message], record: record, status: .unprocessableContent)
    }

    private func form(title: String, action: String, input: TransactionInput, session: WebSession, errors: [String: String], record: TransactionRecord?,
                      status: HTTPResponse.Status = .ok, extraLines: Int = 0) async throws -> Response {
        let wallets = try await store.read(WalletListRequest()).wallets
        let categories = try await store.read(CategoryListRequest()).categories
        let isTransfer = record?.transfer != nil
        let categoryItems = categories.map { (String($0.id), $0.path) }
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
            fields.append(field("rate", "Rate the bank charged (optional)", "<input id=\"rate\" name=\"rate\" inputmode=\"decimal\" autocomplete=\"off\" value=\"\(input.rate)\">",
                                hint: "Wallet currency per unit of the currency above, used for this transaction only; shared rates are not changed."))
        }
        fields += [
            field("date", "Date", "<input id=\"date\" name=\"date\" type=\"date\" value=\"\(input.date)\" required>"),
            field("category", "Category", "<select id=\"category\" name=\"category\"\(locked)>\(options(input.category, categoryItems, blank: record?.categoryId == nil ? "No category" : "None: split below"))</select>"),
            field("tags", "Tags", "<input id=\"tags\" name=\"tags\" autocomplete=\"off\" value=\"\(input.tags)\">", hint: "Separated by commas."),
            field("notes", "Notes", "<textarea id=\"notes\" name=\"notes\">\(input.notes)</textarea>"),
        ]
        let lines = isTransfer ? [] : input.splitLinesShown(extra: extraLines)
        if !isTransfer {
            fields.insert(splitFieldset(lines, categories: categoryItems, errors: errors, options: { options($0, categoryItems, blank: "Category…") }), at: fields.count - 2)
        }
        let moreLines: HTML = !isTransfer && lines.count < TransactionInput.maximumSplitLines
            ? " <button type=\"submit\" name=\"more_lines\" value=\"1\" class=\"secondary\">More split lines</button>" : .empty
        let deletion: HTML = record.map { record in
            """
            <form method="post" action="/transactions/\(record.id)/delete" class="stack">\(FormSupport.hidden(session))\
            <button type="submit" class="danger">Delete\(record.transfer != nil ? " both legs of this transfer" : "")</button></form>
            """
        } ?? .empty
        let content: HTML = """
        \(FormSupport.error(errors["_form"]))\
        <form method="post" action="\(action)" class="stack" novalidate>\(FormSupport.hidden(session))\(fields)\
        <div><button type="submit">Save</button>\(moreLines)</div></form>\(deletion)
        """
        return WebResponse.html(PageLayout.page(title: title, current: record == nil ? "/transactions/new" : "", live: false, content), status: status)
    }

    /// The split lines (amount, category, memo each), numbered from 0, with the count shown so
    /// the next post reads them all; an error beside the line it is about, one about the parts
    /// together (their sum, their number) above them.
    private func splitFieldset(_ lines: [TransactionInput.SplitLine], categories: [(String, String)], errors: [String: String],
                               options: (String) -> HTML) -> HTML {
        let rows = lines.enumerated().map { line, part -> HTML in
            let number = line + 1
            return """
            <div class="split-line" id="split_\(line)"><label for="split_amount_\(line)">Line \(number) amount</label>\
            <input id="split_amount_\(line)" name="split_amount_\(line)" inputmode="decimal" autocomplete="off" value="\(part.amount)">\
            <label for="split_category_\(line)">Line \(number) category</label>\
            <select id="split_category_\(line)" name="split_category_\(line)">\(options(part.category))</select>\
            <label for="split_memo_\(line)">Line \(number) memo</label>\
            <input id="split_memo_\(line)" name="split_memo_\(line)" autocomplete="off" value="\(part.memo)">\
            \(FormSupport.error(errors["split_\(line)"]))</div>
            """
        }
        return """
        <fieldset id="splits"><legend>Split over categories (optional)</legend>\
        <small class="muted">Two or more lines whose amounts add up to the amount; each has its own category, so leave Category above empty. Blank lines are ignored.</small>\
        \(FormSupport.error(errors["splits"]))<input type="hidden" name="split_lines" value="\(lines.count)">\(rows)</fieldset>
        """
    }
}
