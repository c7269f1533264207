import FoundationEssentials

/// The rates of one profile, by pair, each pair's history sorted by time, so the rate in force
/// at any moment (the newest at or before it) is a binary search away.
public struct RateBook: Sendable {
    private let history: [CurrencyPair: [RateQuote]]

    public init(quotes: [RateQuote]) {
        history = Dictionary(grouping: quotes, by: \.pair).mapValues { $0.sorted { $0.asOf < $1.asOf } }
    }

    public var pairs: [CurrencyPair] { Array(history.keys) }

    /// The newest quote for exactly this pair at or before `moment` (the newest overall when nil).
    public func quote(_ pair: CurrencyPair, at moment: Date? = nil) -> RateQuote? {
        guard let quotes = history[pair], !quotes.isEmpty else { return nil }
        guard let moment else { return quotes.last }
        var low = 0, high = quotes.count
        while low < high {
            let middle = (low + high) / 2
            if quotes[middle].asOf <= moment { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : quotes[low - 1]
    }

    /// The rate from `base` to `quote` using one stored quote: the pair itself, or its inverse.
    /// When both exist, a user's override wins over a fetched rate whichever direction it was
    /// entered in (typing "ARS per USD" must beat a feed's "USD per ARS"); otherwise the newer wins.
    public func leg(from base: String, to quote: String, at moment: Date? = nil) -> RateLeg? {
        let direct = self.quote(CurrencyPair(base, quote), at: moment)
        let inverse = self.quote(CurrencyPair(quote, base), at: moment)
        switch (direct, inverse) {
        case (let direct?, let inverse?):
            let inverseWins = inverse.isOverride != direct.isOverride ? inverse.isOverride : inverse.asOf > direct.asOf
            return inverseWins ? RateLeg(quote: inverse, inverted: true) : RateLeg(quote: direct, inverted: false)
        case (let direct?, nil): return RateLeg(quote: direct, inverted: false)
        case (nil, let inverse?): return RateLeg(quote: inverse, inverted: true)
        case (nil, nil): return nil
        }
    }
}
