import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import LedgerlyRuntime

/// `/import`: a bank statement (CSV, OFX/QFX, QIF, CAMT.053) uploaded, read as `ledgerly import`
/// reads it (`StatementUpload`), checked by the store as `--dry-run` checks it (`tx.import` with
/// `dryRun`: every row new or a duplicate of one already imported) and shown as a preview;
/// nothing is imported before the preview's confirm, which sends the same items under the
/// form's idempotency key (so a double submit imports once, D604); the result offers the undo
/// (`tx.import.undo`, as `ledgerly import undo`).
struct ImportPage {
    let store: WebStore
    let previews: ImportPreviewBook
    let now: Int64

    func show(session: WebSession, refusal: StatementUpload.Refusal? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let wallets = try await store.read(WalletListRequest()).wallets.filter { !$0.archived }
        let walletOptions = wallets.map { wallet -> HTML in "<option value=\"\(wallet.id)\">\(wallet.name) (\(wallet.currency))</option>" }
        let mappingOptions = [HTML("<option value=\"\">Find the columns by their names</option>")] + BankCSVShippedMapping.all.map { shipped -> HTML in
            "<option value=\"\(shipped.name)\">\(shipped.name): \(shipped.about)</option>"
        }
        let refused: HTML = refusal.map { refusal -> HTML in
            let line: HTML = refusal.line.map { HTML("line \($0): ") } ?? .empty
            return "<section class=\"card\" id=\"refused\" role=\"alert\"><h2>Refused</h2><p class=\"error\">\(line)\(refusal.reason); nothing was imported.</p></section>"
        } ?? .empty
        let content: HTML = """
        \(refused)<section class="card" aria-labelledby="uph"><h2 id="uph">Upload a statement</h2>\
        <form method="post" action="/import" enctype="multipart/form-data" class="stack">\(FormSupport.hidden(session, key: nil))\
        <div><label for="wallet">Into wallet</label><select id="wallet" name="wallet" required>\(walletOptions)</select></div>\
        <div><label for="file">Statement file</label><input id="file" name="file" type="file" required>\
        <small class="muted">CSV, OFX or QFX, QIF, or CAMT.053 (XML), up to \(WebLimits.uploadBytes / 1024 / 1024) MiB. The format is found from the file itself.</small></div>\
        <div><label for="mapping">CSV columns</label><select id="mapping" name="mapping">\(mappingOptions)</select>\
        <small class="muted">For a CSV file: a mapping shipped with Ledgerly (<code>ledgerly import mappings</code>), or the columns found by their names (date, amount, description…). Mapping files of your own: <code>ledgerly import csv --mapping</code>.</small></div>\
        <div><button type="submit">Preview</button></div></form>\
        <p class="muted">Nothing is imported until you confirm the preview.</p></section>
        """
        return WebResponse.html(PageLayout.page(title: "Import", current: "/import", live: false, content), status: status)
    }

    /// The uploaded file read and checked: the preview, or the page again with the refusal.
    func preview(_ upload: MultipartForm, session: WebSession) async throws -> Response {
        guard let walletId = Int64(upload["wallet"] ?? ""),
              let wallet = try await store.read(WalletListRequest()).wallets.first(where: { $0.id == walletId && !$0.archived }) else {
            return try await show(session: session, refusal: .init(line: nil, reason: "choose a wallet from the list"), status: .unprocessableContent)
        }
        guard let file = upload.file("file"), !file.bytes.isEmpty else {
            return try await show(session: session, refusal: .init(line: nil, reason: "choose a statement file (the one sent was empty)"), status: .unprocessableContent)
        }
        let mapping = upload["mapping"].flatMap { $0.isEmpty ? nil : $0 }
        let categories = try await store.read(CategoryListRequest()).categories
        let statement: StatementUpload
        do {
            statement = try StatementUpload(bytes: file.bytes, mapping: mapping, wallet: wallet, categories: categories)
        } catch {
            return try await show(session: session, refusal: error, status: .unprocessableContent)
        }
        guard statement.items.count <= TransactionImportRequest.maximumItems else {
            return try await show(session: session, refusal: .init(line: nil, reason: "it holds \(statement.items.count) transactions, more than one import from this page takes (\(TransactionImportRequest.maximumItems)); import it with `ledgerly import \(statement.format.rawValue)`"), status: .unprocessableContent)
        }
        let importId = statement.format.rawValue + "-" + UUID().uuidString.lowercased().prefix(8)
        let checked: TransactionImportReply
        do {
            checked = try await store.write(TransactionImportRequest(importId: importId, items: statement.items, dryRun: true), key: UUID().uuidString.lowercased())
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await show(session: session, refusal: .init(line: nil, reason: body.message), status: .unprocessableContent)
        }
        let preview = ImportPreviewBook.Preview(id: RandomToken.make(), sessionId: session.id, importId: importId, walletName: wallet.name,
                                                fileName: file.filename ?? "", items: statement.items, made: now)
        previews.keep(preview, now: now)
        let duplicateLines = Set(checked.duplicates.compactMap(\.line))
        let rows = statement.items.map { item -> HTML in
            let transaction = item.transaction
            let duplicate = item.line.map(duplicateLines.contains) ?? false
            let sign = transaction?.kind == .expense ? "-" : ""
            return """
            <tr class="\(duplicate ? "duplicate" : "new")"><td class="num">\(item.line ?? 0)</td><td>\(transaction?.date ?? "")</td><td>\(transaction?.notes ?? "")</td>\
            <td class="num">\(sign)\(transaction?.amount ?? "") \(transaction?.currency ?? wallet.currency)</td><td>\(duplicate ? "duplicate (already imported)" : "new")</td></tr>
            """
        }
        let notes: HTML = statement.notes.isEmpty ? .empty : "<ul class=\"notes\">\(statement.notes.map { HTML("<li>\($0)</li>") })</ul>"
        let content: HTML = """
        <section class="card" aria-labelledby="pvh"><h2 id="pvh">Preview: \(file.filename ?? "statement") into \(wallet.name)</h2>\
        <p id="summary">Would import <strong>\(checked.imported)</strong> of \(statement.items.count) rows; \(checked.duplicates.count) duplicate(s) would be skipped (already imported).</p>\(notes)\
        <div class="table-scroll"><table id="preview"><thead><tr><th>Line</th><th>Day</th><th>Description</th><th>Amount</th><th>Status</th></tr></thead><tbody>\(rows)</tbody></table></div>\
        <form method="post" action="/import/confirm" class="stack">\(FormSupport.hidden(session))<input type="hidden" name="preview" value="\(preview.id)">\
        <div><button type="submit">Import \(checked.imported) transaction\(checked.imported == 1 ? "" : "s")</button> <a href="/import">Cancel</a></div></form></section>
        """
        return WebResponse.html(PageLayout.page(title: "Import preview", current: "/import", live: false, content))
    }

    /// Imports the kept preview's items under the form's key: a second send of the same form gets
    /// the first reply from the store and imports nothing more (D604).
    func confirm(_ form: FormFields, session: WebSession) async throws -> Response {
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        guard let preview = previews.preview(form["preview"] ?? "", sessionId: session.id, now: now) else {
            return try await show(session: session, refusal: .init(line: nil, reason: "this preview is no longer kept (previews last 30 minutes and end with a restart of ledgerly-web); upload the file again"), status: .gone)
        }
        let reply: TransactionImportReply
        do {
            reply = try await store.write(TransactionImportRequest(importId: preview.importId, items: preview.items), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return try await show(session: session, refusal: .init(line: nil, reason: body.message), status: .unprocessableContent)
        }
        return WebResponse.seeOther("/import/done?import=\(reply.importId)&imported=\(reply.imported)&duplicates=\(reply.duplicates.count)")
    }

    /// After the confirm: what was imported and the undo.
    func done(query: FormFields, session: WebSession) -> Response {
        let importId = query["import"] ?? ""
        let imported = Int(query["imported"] ?? "") ?? 0
        let duplicates = Int(query["duplicates"] ?? "") ?? 0
        let content: HTML = """
        <section class="card" aria-labelledby="dnh"><h2 id="dnh">Imported</h2>\
        <p id="result">Imported <strong>\(imported)</strong> transaction\(imported == 1 ? "" : "s") as import <code>\(importId)</code>; \(duplicates) duplicate(s) skipped.</p>\
        <form method="post" action="/import/undo" class="stack">\(FormSupport.hidden(session))<input type="hidden" name="import" value="\(importId)">\
        <div><button type="submit" id="undo">Undo this import</button></div></form>\
        <p class="muted">The same as <code>ledgerly import undo \(importId)</code>: deletes every transaction this import recorded.</p>\
        <p><a href="/import">Import another statement</a></p></section>
        """
        return WebResponse.html(PageLayout.page(title: "Import", current: "/import", live: false, content))
    }

    func undo(_ form: FormFields, session: WebSession) async throws -> Response {
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        let importId = form.trimmed("import") ?? ""
        let reply: TransactionImportUndoReply
        do {
            reply = try await store.write(TransactionImportUndoRequest(importId: importId), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            return WebResponse.problem(.unprocessableContent, title: "Not undone", "\(body.message)")
        }
        let content: HTML = """
        <section class="card"><p id="result">Deleted the \(reply.deleted) transactions of import <code>\(reply.importId)</code>.</p><p><a href="/import">Import a statement</a></p></section>
        """
        return WebResponse.html(PageLayout.page(title: "Import undone", current: "/import", live: false, content))
    }
}
