import Foundation
import LedgerlyCore

/// The requests one refresh of a provider makes: one for a fixed URL; for a URL template, one per
/// group of at most `maximumPerRequest` of the codes in use, so a refresh asks only for what the
/// ledger needs (a rates API bills per symbol, CoinGecko limits ids per call).
struct ProviderRequestPlan: Sendable, Hashable {
    static let defaultPerRequest = 50

    let urls: [String]

    /// `needed`: the currencies in use, or nil before setup (everything the provider has; a
    /// template then has nothing to ask for and is skipped).
    init(provider: RatesConfiguration.Provider, needed: Set<String>?) {
        let url = provider.url
        let templated = url.contains("{symbols}") || url.contains("{ids}") || url.contains("{vs}")
        guard templated else {
            urls = [url]
            return
        }
        guard let needed else {
            urls = []
            return
        }
        let perRequest = max(provider.maximumPerRequest ?? Self.defaultPerRequest, 1)
        let coinSymbols = Set((provider.coins ?? [:]).values.map { $0.uppercased() })
        let fiat = needed.filter { !coinSymbols.contains($0) && !StalenessPolicy.standardCryptoCodes.contains($0) }.sorted()
        let vs = fiat.map { $0.lowercased() }.joined(separator: ",")
        if url.contains("{ids}") {
            let ids = (provider.coins ?? [:]).filter { needed.contains($0.value.uppercased()) }.keys.sorted()
            guard !ids.isEmpty, !fiat.isEmpty else {
                urls = []
                return
            }
            urls = ids.chunked(perRequest).map { url.replacingOccurrences(of: "{ids}", with: $0.joined(separator: ",")).replacingOccurrences(of: "{vs}", with: vs) }
        } else if url.contains("{symbols}") {
            guard !fiat.isEmpty else {
                urls = []
                return
            }
            urls = fiat.chunked(perRequest).map { url.replacingOccurrences(of: "{symbols}", with: $0.joined(separator: ",")).replacingOccurrences(of: "{vs}", with: vs) }
        } else {
            urls = fiat.isEmpty ? [] : [url.replacingOccurrences(of: "{vs}", with: vs)]
        }
    }
}
