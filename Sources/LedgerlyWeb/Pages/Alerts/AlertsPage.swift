import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/alerts`: the alert history newest first, `WebLimits.pageSize` a page (`alert.list`, the
/// alerts `ledgerly alerts list --json` prints), and a live feed: the page is live, so an alert
/// the alerts service raises (a store write, hence a change event) shows within a second.
///
/// `alert.list` answers the newest N alerts (oldest first) and has no "before" cursor, so page p
/// asks for the newest p × pageSize and shows the oldest pageSize of them; that reaches back
/// `AlertsPage.deepestAlert` alerts (the request's limit), and the last page says where the
/// older ones are (D584).
struct AlertsPage {
    let store: WebStore

    /// `alert.list`'s largest limit.
    static let deepestAlert = 10_000

    /// The page asked for: 1 when absent or not a page number, the deepest page when beyond it.
    static func pageNumber(_ text: String?) -> Int {
        guard let text, let page = Int(text), page > 0 else { return 1 }
        return min(page, deepestAlert / WebLimits.pageSize)
    }

    /// The slice of the newest `page × pageSize` alerts (oldest first) that page `page` shows,
    /// newest first.
    static func slice(_ newest: [AlertRecord], page: Int, pageSize: Int = WebLimits.pageSize) -> [AlertRecord] {
        let end = newest.count - (page - 1) * pageSize
        guard end > 0 else { return [] }
        return Array(newest[max(0, end - pageSize)..<end].reversed())
    }

    /// What lies beyond page `page`, from how many alerts its request (`requestLimit(page:)`) got.
    enum Older: Equatable {
        case none
        /// An older page exists.
        case page
        /// The deepest page is full: there may be older alerts, which the CLI reaches (D584).
        case beyondTheDeepest
    }

    /// The request's limit for page `page`: one more than the pages so far (to tell whether an
    /// older page exists), but never above `alert.list`'s largest.
    static func requestLimit(page: Int) -> Int {
        min(page * WebLimits.pageSize + 1, deepestAlert)
    }

    static func older(page: Int, received: Int) -> Older {
        let limit = page * WebLimits.pageSize
        if received > limit { return .page }
        // The deepest page cannot ask for one more: a full answer may hide older alerts.
        if limit >= deepestAlert && received >= deepestAlert { return .beyondTheDeepest }
        return .none
    }

    func render(query: FormFields) async throws -> Response {
        let page = Self.pageNumber(query["page"])
        let reply = try await store.read(AlertListRequest(limit: Self.requestLimit(page: page)))
        let beyond = Self.older(page: page, received: reply.alerts.count)
        let newest = beyond == .page ? Array(reply.alerts.dropFirst()) : reply.alerts
        let shown = Self.slice(newest, page: page)
        let rows = shown.map { alert -> HTML in
            """
            <li data-alert="\(alert.id)"><p><strong>\(alert.subject)</strong> <span class="muted">\(alert.kind.rawValue)</span><br>\(alert.message)<br>\
            <span class="muted"><time datetime="\(alert.raisedAt)">\(alert.raisedAt.prefix(19).replacingOccurrences(of: "T", with: " "))</time>\(alert.period.map { " · \($0)" } ?? "")</span></p></li>
            """
        }
        let older: HTML = switch beyond {
        case .page: "<a class=\"button\" href=\"/alerts?page=\(page + 1)\">Older</a>"
        case .beyondTheDeepest: "<p class=\"muted\" id=\"older-alerts\">Any alerts older than these: <code>ledgerly alerts --since DAY</code>.</p>"
        case .none: .empty
        }
        let newer: HTML = page > 1 ? "<a class=\"button\" href=\"/alerts\">Newest</a>" : .empty
        let content: HTML = """
        <section class="card" aria-labelledby="al"><h2 id="al">\(page == 1 ? "Newest alerts" : "Alerts, page \(page)")</h2>\
        \(rows.isEmpty ? HTML("<p class=\"empty\">No alerts\(page > 1 ? " on this page" : " yet").</p>") : HTML("<ul class=\"list\" id=\"alerts\">\(rows)</ul>"))\
        <nav class="pager" aria-label="Pages">\(newer)\(older)</nav>\
        <p class="muted">Budgets crossing their thresholds, goals reaching milestones or falling behind, recurring transactions posted or due, stale rates and allocation drift, each raised once by ledgerly-alerts. New ones appear here as they are raised.</p></section>
        """
        return WebResponse.html(PageLayout.page(title: "Alerts", current: "/alerts", live: true, content))
    }
}
