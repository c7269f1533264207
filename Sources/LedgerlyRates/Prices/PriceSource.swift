import LedgerlyProtocol

/// A provider the rates service fetches asset prices from, with the names it goes by.
enum PriceSource: String, CaseIterable, Sendable, Hashable {
    case alphaVantage = "alphavantage"
    case coinGecko = "coingecko"
    case finnhub

    /// The name its snapshots are stored under (`PriceSnapshotInput.source`).
    var source: String { rawValue }

    /// The name of its status (`rates.provider.report`): prefixed, because a rates provider in
    /// `rates.json` may well be called "coingecko" too (D151).
    var statusName: String { "prices.\(rawValue)" }

    /// What `RateProviderStatus.profile` says for a price provider, which feeds no rate profile.
    static let statusProfile = "prices"

    /// The price drop folder's status name and snapshot source.
    static let dropFolderStatusName = "prices.drop-folder"
    static let dropFolderSource = "drop-folder"

    /// The source that prices assets of a provider; nil for `manual`, which is never fetched.
    init?(_ provider: PriceProvider) {
        switch provider {
        case .alphavantage: self = .alphaVantage
        case .coingecko: self = .coinGecko
        case .finnhub: self = .finnhub
        case .manual: return nil
        }
    }

    /// "Alpha Vantage", for messages.
    var title: String {
        switch self {
        case .alphaVantage: "Alpha Vantage"
        case .coinGecko: "CoinGecko"
        case .finnhub: "Finnhub"
        }
    }
}
