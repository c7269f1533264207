import Foundation
import LedgerlyRuntime

extension RatesConfiguration {
    /// The `prices` section of `rates.json`: asset prices beside the exchange rates (D150).
    ///
    /// ```json
    /// "prices": {
    ///   "alphaVantage": {"apiKey": "…", "dailyQuota": 25},
    ///   "coinGecko": {"headers": {"x-cg-demo-api-key": "…"}},
    ///   "finnhub": {"enabled": true, "apiKey": "…"},
    ///   "dropFolder": {"path": "dropfolder/prices"},
    ///   "nightlyPurge": true
    /// }
    /// ```
    ///
    /// Everything is optional: without the section, CoinGecko prices crypto, Alpha Vantage
    /// waits for a key (its status says so once an asset needs it), Finnhub is off, the drop
    /// folder is `<home>/dropfolder/prices` and the purge runs nightly. Keys live in this file
    /// only (the home is 0700) and never reach a log, a status or an error message.
    public struct Prices: Codable, Sendable, Hashable {
        /// false: no prices are fetched (the drop folder and the purge still run). Default true.
        public var enabled: Bool?
        public var alphaVantage: AlphaVantage?
        public var coinGecko: CoinGecko?
        public var finnhub: Finnhub?
        public var dropFolder: DropFolder?
        /// false: `invest.price.purge` is not sent. Default true.
        public var nightlyPurge: Bool?

        public init(enabled: Bool? = nil, alphaVantage: AlphaVantage? = nil, coinGecko: CoinGecko? = nil, finnhub: Finnhub? = nil,
                    dropFolder: DropFolder? = nil, nightlyPurge: Bool? = nil) {
            self.enabled = enabled
            self.alphaVantage = alphaVantage
            self.coinGecko = coinGecko
            self.finnhub = finnhub
            self.dropFolder = dropFolder
            self.nightlyPurge = nightlyPurge
        }

        /// Alpha Vantage's `GLOBAL_QUOTE`, for stocks, ETFs, funds and bonds.
        public struct AlphaVantage: Codable, Sendable, Hashable {
            public var apiKey: String?
            /// Default `https://www.alphavantage.co/query`; the query is added.
            public var url: String?
            /// Requests per UTC day (default 25, the free tier's).
            public var dailyQuota: Int?
            /// Default 1 s, at least 1 s.
            public var minimumSecondsBetweenRequests: Double?
            public var timeoutSeconds: Int?

            public init(apiKey: String? = nil, url: String? = nil, dailyQuota: Int? = nil, minimumSecondsBetweenRequests: Double? = nil, timeoutSeconds: Int? = nil) {
                self.apiKey = apiKey
                self.url = url
                self.dailyQuota = dailyQuota
                self.minimumSecondsBetweenRequests = minimumSecondsBetweenRequests
                self.timeoutSeconds = timeoutSeconds
            }
        }

        /// CoinGecko's `/simple/price`, for crypto.
        public struct CoinGecko: Codable, Sendable, Hashable {
            /// Default `https://api.coingecko.com/api/v3/simple/price`; the query is added.
            public var url: String?
            /// A demo or pro key goes here (`x-cg-demo-api-key`).
            public var headers: [String: String]?
            /// Coin ids per request (default 50).
            public var maximumPerRequest: Int?
            public var minimumSecondsBetweenRequests: Double?
            public var timeoutSeconds: Int?

            public init(url: String? = nil, headers: [String: String]? = nil, maximumPerRequest: Int? = nil, minimumSecondsBetweenRequests: Double? = nil, timeoutSeconds: Int? = nil) {
                self.url = url
                self.headers = headers
                self.maximumPerRequest = maximumPerRequest
                self.minimumSecondsBetweenRequests = minimumSecondsBetweenRequests
                self.timeoutSeconds = timeoutSeconds
            }
        }

        /// Finnhub's `/quote`, for assets whose provider is `finnhub`; off unless enabled.
        public struct Finnhub: Codable, Sendable, Hashable {
            /// Default false.
            public var enabled: Bool?
            /// Sent in the `X-Finnhub-Token` header, never in the URL.
            public var apiKey: String?
            /// Default `https://finnhub.io/api/v1/quote`; the query is added.
            public var url: String?
            public var minimumSecondsBetweenRequests: Double?
            public var timeoutSeconds: Int?

            public init(enabled: Bool? = nil, apiKey: String? = nil, url: String? = nil, minimumSecondsBetweenRequests: Double? = nil, timeoutSeconds: Int? = nil) {
                self.enabled = enabled
                self.apiKey = apiKey
                self.url = url
                self.minimumSecondsBetweenRequests = minimumSecondsBetweenRequests
                self.timeoutSeconds = timeoutSeconds
            }
        }

        /// The watched folder of the user's price files.
        public struct DropFolder: Codable, Sendable, Hashable {
            /// Default `<home>/dropfolder/prices`; relative paths are relative to the home.
            public var path: String?
            /// false: no folder is watched. Default true.
            public var enabled: Bool?

            public init(path: String? = nil, enabled: Bool? = nil) {
                self.path = path
                self.enabled = enabled
            }

            func folder(in home: LedgerlyHome) -> URL {
                guard let path else { return home.root.appendingPathComponent("dropfolder").appendingPathComponent("prices") }
                return path.hasPrefix("/") ? URL(fileURLWithPath: path) : home.root.appendingPathComponent(path)
            }
        }

        static let alphaVantageURL = "https://www.alphavantage.co/query"
        static let coinGeckoURL = "https://api.coingecko.com/api/v3/simple/price"
        static let finnhubURL = "https://finnhub.io/api/v1/quote"
        static let defaultDailyQuota = 25

        var isEnabled: Bool { enabled ?? true }
        var isFinnhubEnabled: Bool { finnhub?.enabled ?? false }
        var dailyQuota: Int { alphaVantage?.dailyQuota ?? Self.defaultDailyQuota }
        var purges: Bool { nightlyPurge ?? true }
        var effectiveDropFolder: DropFolder { dropFolder ?? DropFolder() }

        /// The checks `RatesConfiguration.load` makes, so a wrong value stops the service at start.
        func validate() throws(RatesConfigurationError) {
            for (name, url) in [("prices.alphaVantage", alphaVantage?.url), ("prices.coinGecko", coinGecko?.url), ("prices.finnhub", finnhub?.url)] {
                guard let url else { continue }
                guard URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) == true, !url.contains("?") else {
                    throw .badURL(name, url)
                }
            }
            if let quota = alphaVantage?.dailyQuota, !(1...100_000).contains(quota) {
                throw .badValue("prices.alphaVantage", "dailyQuota must be 1 to 100000")
            }
            if let pace = alphaVantage?.minimumSecondsBetweenRequests, !(1...60).contains(pace) {
                throw .badValue("prices.alphaVantage", "minimumSecondsBetweenRequests must be 1 to 60")
            }
            for (name, pace) in [("prices.coinGecko", coinGecko?.minimumSecondsBetweenRequests), ("prices.finnhub", finnhub?.minimumSecondsBetweenRequests)] {
                if let pace, !(0...60).contains(pace) { throw .badValue(name, "minimumSecondsBetweenRequests must be 0 to 60") }
            }
            if let perRequest = coinGecko?.maximumPerRequest, !(1...250).contains(perRequest) {
                throw .badValue("prices.coinGecko", "maximumPerRequest must be 1 to 250")
            }
            for (name, timeout) in [("prices.alphaVantage", alphaVantage?.timeoutSeconds), ("prices.coinGecko", coinGecko?.timeoutSeconds), ("prices.finnhub", finnhub?.timeoutSeconds)] {
                if let timeout, !(1...120).contains(timeout) { throw .badValue(name, "timeoutSeconds must be 1 to 120") }
            }
            for (name, key) in [("prices.alphaVantage", alphaVantage?.apiKey), ("prices.finnhub", finnhub?.apiKey)] {
                // Named without its value: the message goes to a terminal and a log.
                if let key, key.isEmpty || key.contains(where: { $0.isWhitespace || $0 == "&" || $0 == "#" }) {
                    throw .badValue(name, "apiKey must be non-empty, without spaces, '&' or '#'")
                }
            }
            if isFinnhubEnabled, finnhub?.apiKey == nil { throw .badValue("prices.finnhub", "enabled needs an apiKey") }
        }
    }
}
