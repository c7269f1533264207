import Foundation
import LedgerlyProtocol

/// Which assets one price refresh asks each provider about (D154), from `invest.price.wanted`
/// (the assets held or watched, and nothing else):
///
/// - an asset goes to the provider it names (`manual` ones are never fetched), under the key the
///   provider knows it by: its `providerId`, else its symbol (lower-cased for CoinGecko, whose
///   ids are lower case);
/// - an asset whose latest price is younger than half its stale limit is left out: it is fresh,
///   and asking again would spend a request (and Alpha Vantage's daily quota) for nothing;
/// - keys come oldest price first (none at all first), so when a quota runs out the assets that
///   need a price most have had theirs.
///
/// Several assets may share a key (the same coin quoted in two currencies): each gets its price.
struct PricePlan: Sendable {
    struct Work: Sendable, Hashable {
        /// Provider key → the assets it prices, in asking order.
        var keys: [String]
        var assets: [String: [PricedAsset]]
    }

    private(set) var work: [PriceSource: Work] = [:]
    /// Fresh assets left out.
    private(set) var fresh = 0

    init(assets: [PricedAsset], now: Date) {
        var byKey: [PriceSource: [String: [PricedAsset]]] = [:]
        for asset in assets {
            guard let source = PriceSource(asset.provider) else { continue }
            if let latest = asset.latestAsOf.flatMap(Timestamp.parse), now.timeIntervalSince(latest) < Double(asset.staleMinutes) * 30 {
                fresh += 1
                continue
            }
            let id = asset.providerId.flatMap { $0.isEmpty ? nil : $0 } ?? (source == .coinGecko ? asset.symbol.lowercased() : asset.symbol)
            byKey[source, default: [:]][id, default: []].append(asset)
        }
        for (source, assets) in byKey {
            let oldest = assets.mapValues { $0.map { $0.latestAsOf ?? "" }.min() ?? "" }
            let keys = assets.keys.sorted { (oldest[$0]!, $0) < (oldest[$1]!, $1) }
            work[source] = Work(keys: keys, assets: assets)
        }
    }
}
