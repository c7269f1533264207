import Hummingbird
import LedgerlyProtocol
import LedgerlyRuntime

/// `/wallets`: every wallet with its balance in its own currency and in the base currency (the
/// store's balance report, the figures `ledgerly report balance` prints), and the total.
struct WalletsPage {
    let store: WebStore

    func render() async throws -> Response {
        let report = try await store.read(BalanceReportRequest())
        let base = report.baseCurrency ?? ""
        let rows = report.wallets.map { wallet -> HTML in
            let inBase: HTML = wallet.currency == base ? .empty
                : HTML("<br><span class=\"muted\">\(wallet.baseValue.map { "\($0) \(base)" } ?? "no rate to \(base)")</span>")
            return """
            <li><a class="row" href="/wallets/\(wallet.walletId)"><span>\(wallet.name)</span>\
            <span class="num" data-wallet="\(wallet.walletId)">\(wallet.balance) \(wallet.currency)\(inBase)</span></a></li>
            """
        }
        let unvalued: HTML = report.unvalued.isEmpty ? .empty
            : "<p class=\"notice\">Not in the total for want of a rate: \(report.wallets.filter { report.unvalued.contains($0.walletId) }.map(\.name).joined(separator: ", ")).</p>"
        let content: HTML = """
        <section class="card"><p>Total <strong class="figure" id="total">\(report.total ?? "—") \(base)</strong></p>\(unvalued)\
        \(rows.isEmpty ? HTML("<p class=\"empty\">No wallets yet. Add one with <code>ledgerly wallet add NAME --currency CODE</code>.</p>") : HTML("<ul class=\"list\">\(rows)</ul>"))\
        <p class="muted">As of \(report.asOf).</p></section>
        """
        return WebResponse.html(PageLayout.page(title: "Wallets", current: "/wallets", live: true, content))
    }
}
