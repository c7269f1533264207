import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/wallets/ID`: the wallet's balance in its currency and in the base currency, and its
/// transactions newest first, `WebLimits.pageSize` at a time by keyset paging (`tx.list`'s
/// `after` cursor, carried in the link as `after=DATE.ID`: as fast on the last page as on the
/// first), filtered by dates, text, tag and category as `tx.list` allows.
struct WalletPage {
    let store: WebStore

    func render(id text: String, query: FormFields) async throws -> Response {
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        let report = try await store.read(BalanceReportRequest(includeArchived: true))
        guard let wallet = report.wallets.first(where: { $0.walletId == id }) else { throw HTTPError(.notFound) }
        let base = report.baseCurrency ?? ""
        let filters = WalletFilters(query)
        var request = TransactionListRequest(walletId: id, categoryId: filters.categoryId, tag: filters.tag, from: filters.from, to: filters.to, text: filters.text, limit: WebLimits.pageSize)
        request.after = filters.after
        let categories = try await store.read(CategoryListRequest()).categories
        let names = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0.path) })
        let page: TransactionListReply
        var problem: HTML = .empty
        do {
            page = try await store.read(request)
        } catch {
            // A filter the store refused (a date it cannot read): said beside the filters.
            guard case .rejected(let body) = error else { throw error }
            problem = FormSupport.error("\(body.field.map { "\($0): " } ?? "")\(body.message)")
            page = TransactionListReply(transactions: [], total: 0)
        }
        let rows = page.transactions.map { record -> HTML in
            let sign = record.kind == .expense ? "-" : "+"
            let what: String = if let transfer = record.transfer {
                "Transfer \(record.kind == .expense ? "to" : "from") wallet \(transfer.counterpartyWalletId)"
            } else if !record.splits.isEmpty {
                "Split: " + record.splits.map { names[$0.categoryId] ?? "category \($0.categoryId)" }.joined(separator: ", ")
            } else {
                record.categoryId.flatMap { names[$0] } ?? "No category"
            }
            let tags: HTML = record.tags.isEmpty ? .empty : HTML(" <span class=\"muted\">#\(record.tags.joined(separator: " #"))</span>")
            return """
            <li><a class="row" href="/transactions/\(record.id)"><span>\(record.date) · \(what)\(tags)<br><span class="muted">\(record.notes ?? "")</span></span>\
            <span class="num">\(sign)\(record.walletAmount) \(wallet.currency)</span></a></li>
            """
        }
        let next: HTML = page.next.map { cursor in
            HTML("<a class=\"button\" href=\"/wallets/\(id)?\(filters.query(after: "\(cursor.date).\(cursor.id)"))\">Older</a>")
        } ?? .empty
        let first: HTML = filters.after == nil ? .empty : HTML("<a class=\"button\" href=\"/wallets/\(id)?\(filters.query(after: nil))\">Newest</a>")
        let inBase: HTML = wallet.currency == base ? .empty
            : HTML("<p class=\"muted\">\(wallet.baseValue.map { "\($0) \(base)" } ?? "No rate to \(base) yet: not in the total.")</p>")
        let categoryOptions = [HTML("<option value=\"\">Any</option>")] + categories.map { category in
            category.id == filters.categoryId
                ? HTML("<option value=\"\(category.id)\" selected>\(category.path)</option>")
                : HTML("<option value=\"\(category.id)\">\(category.path)</option>")
        }
        let content: HTML = """
        <section class="card"><p class="figure" id="balance">\(wallet.balance) \(wallet.currency)</p>\(inBase)\
        <p><a class="button" href="/transactions/new?wallet=\(id)">Add a transaction</a></p></section>\
        <section class="card" aria-labelledby="tx"><h2 id="tx">Transactions (\(page.total))</h2>\
        <form class="filters" method="get" action="/wallets/\(id)" role="search">\
        <div><label for="from">From</label><input id="from" name="from" type="date" value="\(filters.from)"></div>\
        <div><label for="to">To</label><input id="to" name="to" type="date" value="\(filters.to)"></div>\
        <div><label for="text">Notes contain</label><input id="text" name="text" value="\(filters.text)"></div>\
        <div><label for="tag">Tag</label><input id="tag" name="tag" value="\(filters.tag)"></div>\
        <div><label for="category">Category (with its children)</label><select id="category" name="category">\(categoryOptions)</select></div>\
        <div><button type="submit">Filter</button></div></form>\(problem)\
        \(rows.isEmpty ? HTML("<p class=\"empty\">No transactions match.</p>") : HTML("<ul class=\"list\" id=\"transactions\">\(rows)</ul>"))\
        <nav class="pager" aria-label="Pages">\(first)\(next)</nav></section>
        """
        return WebResponse.html(PageLayout.page(title: wallet.name, current: "/wallets", live: true, content))
    }
}

/// A wallet page's filters as the query string carries them; blank fields are no filter.
struct WalletFilters {
    let from: String?
    let to: String?
    let text: String?
    let tag: String?
    let categoryId: Int64?
    let after: TransactionListCursor?

    init(_ query: FormFields) {
        from = query.trimmed("from")
        to = query.trimmed("to")
        text = query.trimmed("text")
        tag = query.trimmed("tag")
        categoryId = query.trimmed("category").flatMap { Int64($0) }
        after = query.trimmed("after").flatMap(Self.cursor)
    }

    /// "2026-12-01.45" → date and id; anything else is no cursor (the first page).
    static func cursor(_ text: String) -> TransactionListCursor? {
        guard let dot = text.lastIndex(of: "."), let id = Int64(text[text.index(after: dot)...]), id > 0 else { return nil }
        let date = String(text[..<dot])
        guard LedgerDate(date) != nil else { return nil }
        return TransactionListCursor(date: date, id: id)
    }

    /// The query string for the same filters at another page.
    func query(after: String?) -> String {
        let pairs: [(String, String?)] = [("from", from), ("to", to), ("text", text), ("tag", tag), ("category", categoryId.map(String.init)), ("after", after)]
        return pairs.compactMap { name, value in value.map { "\(name)=\(QueryEncoding.encode($0))" } }.joined(separator: "&")
    }
}
