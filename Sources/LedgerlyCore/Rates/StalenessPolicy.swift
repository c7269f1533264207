import FoundationEssentials

/// When a rate is too old to trust without saying so: conversions still use the last known
/// value, but every output that used a stale rate says how old it is ("rate 3 h old").
public struct StalenessPolicy: Sendable, Hashable {
    public var fiatLimit: Duration
    public var cryptoLimit: Duration
    /// Codes priced like crypto-assets (their prices move within minutes).
    public var cryptoCodes: Set<String>

    public static let standardCryptoCodes: Set<String> = ["BTC", "ETH", "USDT", "USDC", "SOL", "XRP", "ADA", "DOGE", "LTC"]
    public static let standard = StalenessPolicy(fiatMinutes: 60, cryptoMinutes: 15)

    /// The limits as settings keep them (`staleFiatMinutes`, `staleCryptoMinutes`).
    public init(fiatMinutes: Int, cryptoMinutes: Int) {
        self.init(fiatLimit: .seconds(Int64(fiatMinutes) * 60), cryptoLimit: .seconds(Int64(cryptoMinutes) * 60), cryptoCodes: Self.standardCryptoCodes)
    }

    public init(fiatLimit: Duration, cryptoLimit: Duration, cryptoCodes: Set<String>) {
        self.fiatLimit = fiatLimit
        self.cryptoLimit = cryptoLimit
        self.cryptoCodes = cryptoCodes
    }

    public func limit(for pair: CurrencyPair) -> Duration {
        cryptoCodes.contains(pair.base) || cryptoCodes.contains(pair.quote) ? cryptoLimit : fiatLimit
    }

    /// Now minus the rate's own moment (`asOf`), for fetched, dropped and typed rates alike: when
    /// it was stored or last confirmed says nothing about how old the rate is (D401).
    public func age(of quote: RateQuote, now: Date) -> Duration {
        .seconds(max(0, Int64(now.timeIntervalSince(quote.asOf).rounded(.down))))
    }

    public func isStale(_ quote: RateQuote, now: Date) -> Bool {
        age(of: quote, now: now) > limit(for: quote.pair)
    }

    /// "45 s", "12 min", "3 h", "2 d": how people say the age of a rate.
    public static func describe(_ age: Duration) -> String {
        let seconds = age.components.seconds
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3_600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3_600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
