import LedgerlyCore
import LedgerlyProtocol

/// The dashboard's rate warnings (D575): the stale rates of the active profile, as `rates.list`
/// marks them for `ledgerly rates list` (past the staleness limit, counted from each rate's own
/// moment), and the failing rate providers, as `rates.provider.list` reports them for `ledgerly
/// status` (their error, failures in a row, next try). Nothing to warn about says so in a line.
enum RateWarnings {
    static func card(rates: RateListReply, providers: [RateProviderStatus]) -> HTML {
        let stale = rates.rates.filter { $0.stale == true }.map { rate -> HTML in
            let age = rate.ageSeconds.map { ", \(StalenessPolicy.describe(.seconds($0))) old" } ?? ""
            return "<li data-stale=\"\(rate.base)/\(rate.quote)\">Stale rate: <strong>\(rate.base)/\(rate.quote)</strong> <span class=\"num\">\(rate.rate)</span> (\(rate.source), as of \(rate.asOf)\(age))</li>"
        }
        let failing = providers.filter { $0.lastError != nil }.map { provider -> HTML in
            let next = provider.nextAttemptAt.map { " Next try \($0)." } ?? ""
            return """
            <li data-provider="\(provider.name)">Rate provider <strong>\(provider.name)</strong> (\(provider.profile)) failing \
            (\(provider.consecutiveFailures)×, last success \(provider.lastSuccessAt ?? "never")): \(provider.lastError ?? "").\(next)</li>
            """
        }
        guard !stale.isEmpty || !failing.isEmpty else {
            return "<section class=\"card\" aria-labelledby=\"rw\" id=\"rate-warnings\"><h2 id=\"rw\">Rates</h2><p>No stale rates in \(rates.profile.name); no rate provider failing.</p></section>"
        }
        return """
        <section class="card wide notice" aria-labelledby="rw" id="rate-warnings"><h2 id="rw">Rates need attention</h2><ul>\(stale)\(failing)</ul>\
        <p class="muted"><a href="/rates">Rates</a> · <code>ledgerly rates refresh</code> fetches again · <code>ledgerly status</code> shows every provider.</p></section>
        """
    }
}
