import Foundation
import LedgerlyRuntime

/// Which providers the rates service asks, read from `<config>/rates.json` when it exists:
///
/// ```json
/// {"providers": [{"name": "ecb", "format": "ecb-daily-xml", "profile": "official",
///                 "url": "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"}]}
/// ```
///
/// Without the file, the ECB's daily reference rates feed the `official` profile and the drop
/// folder `<home>/dropfolder` feeds `parallel`. Keys for paid APIs go in `headers` (the file is in
/// the 0700 home, never logged). A URL may hold `{symbols}` (the fiat codes in use, comma-joined),
/// `{ids}` (the CoinGecko ids of the coins in use) and `{vs}` (the fiat codes in use, lower case):
/// the request is then made for just what is needed, split into requests of at most
/// `maximumPerRequest` codes, paced `minimumSecondsBetweenRequests` apart.
public struct RatesConfiguration: Codable, Sendable, Hashable {
    public enum Format: String, Codable, Sendable, CaseIterable {
        case ecbDailyXML = "ecb-daily-xml"
        case ecbHistoryCSV = "ecb-history-csv"
        case ratesAPIJSON = "rates-api-json"
        case coinGecko = "coingecko"
    }

    public struct Provider: Codable, Sendable, Hashable {
        public var name: String
        public var format: Format
        public var url: String
        /// The rate profile its rates go to (by name).
        public var profile: String
        public var headers: [String: String]?
        /// CoinGecko ids to symbols, e.g. {"bitcoin": "BTC"}.
        public var coins: [String: String]?
        /// Seconds to wait for a response.
        public var timeoutSeconds: Int?
        /// The provider's rate limit, as the least time between two requests (default 1 s, at
        /// most 60 s: a refresh waits for it, and an on-demand refresh must finish in a minute).
        public var minimumSecondsBetweenRequests: Double?
        /// Codes per request when the URL has `{symbols}` or `{ids}` (default 50).
        public var maximumPerRequest: Int?

        public init(name: String, format: Format, url: String, profile: String, headers: [String: String]? = nil, coins: [String: String]? = nil,
                    timeoutSeconds: Int? = nil, minimumSecondsBetweenRequests: Double? = nil, maximumPerRequest: Int? = nil) {
            self.name = name
            self.format = format
            self.url = url
            self.profile = profile
            self.headers = headers
            self.coins = coins
            self.timeoutSeconds = timeoutSeconds
            self.minimumSecondsBetweenRequests = minimumSecondsBetweenRequests
            self.maximumPerRequest = maximumPerRequest
        }
    }

    /// When providers are asked without being told to.
    public struct Schedule: Codable, Sendable, Hashable {
        /// false: only `ledgerly rates refresh` fetches (a metered connection). Default true.
        public var enabled: Bool?
        /// The first wait after a failure; it doubles with each failure in a row (default 30 s)…
        public var retryInitialSeconds: Int?
        /// …up to this (default 3600 s).
        public var retryMaximumSeconds: Int?

        public init(enabled: Bool? = nil, retryInitialSeconds: Int? = nil, retryMaximumSeconds: Int? = nil) {
            self.enabled = enabled
            self.retryInitialSeconds = retryInitialSeconds
            self.retryMaximumSeconds = retryMaximumSeconds
        }

        var isEnabled: Bool { enabled ?? true }
        var backoff: Backoff { Backoff(initialSeconds: retryInitialSeconds ?? 30, maximumSeconds: retryMaximumSeconds ?? 3_600) }
    }

    /// The watched folder of the user's own rate files.
    public struct DropFolder: Codable, Sendable, Hashable {
        /// Default `<home>/dropfolder`; relative paths are relative to the home.
        public var path: String?
        /// The rate profile its rates go to (default "parallel").
        public var profile: String?
        /// How often it is looked at (default 2 s).
        public var scanSeconds: Double?
        /// false: no folder is watched. Default true.
        public var enabled: Bool?

        public init(path: String? = nil, profile: String? = nil, scanSeconds: Double? = nil, enabled: Bool? = nil) {
            self.path = path
            self.profile = profile
            self.scanSeconds = scanSeconds
            self.enabled = enabled
        }

        func folder(in home: LedgerlyHome) -> URL {
            guard let path else { return home.root.appendingPathComponent("dropfolder") }
            return path.hasPrefix("/") ? URL(fileURLWithPath: path) : home.root.appendingPathComponent(path)
        }
    }

    public var providers: [Provider]
    public var schedule: Schedule?
    public var dropFolder: DropFolder?
    /// Asset prices (`Prices/PricesConfiguration.swift`).
    public var prices: Prices?

    public init(providers: [Provider], schedule: Schedule? = nil, dropFolder: DropFolder? = nil, prices: Prices? = nil) {
        self.providers = providers
        self.schedule = schedule
        self.dropFolder = dropFolder
        self.prices = prices
    }

    public static let standard = RatesConfiguration(providers: [
        Provider(name: "ecb", format: .ecbDailyXML, url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml", profile: "official"),
    ])

    var effectiveSchedule: Schedule { schedule ?? Schedule() }
    var effectiveDropFolder: DropFolder { dropFolder ?? DropFolder() }
    var effectivePrices: Prices { prices ?? Prices() }

    /// `rates.json` in the home's config directory (`$XDG_CONFIG_HOME/ledgerly` for the default home).
    public static func url(in home: LedgerlyHome) -> URL { home.configDirectory.appendingPathComponent("rates.json") }

    /// The file's configuration, or the standard one when there is no file. A file that cannot be
    /// read is an error: silently falling back would fetch from somewhere the user did not choose.
    public static func load(from home: LedgerlyHome) throws -> RatesConfiguration {
        let file = url(in: home)
        guard let data = FileManager.default.contents(atPath: file.path) else { return .standard }
        do {
            let configuration = try ConfigurationJSON.decoder().decode(RatesConfiguration.self, from: data)
            for provider in configuration.providers {
                let template = provider.url.replacingOccurrences(of: "{symbols}", with: "x").replacingOccurrences(of: "{ids}", with: "x").replacingOccurrences(of: "{vs}", with: "x")
                guard URL(string: template)?.scheme.map({ ["http", "https"].contains($0) }) == true else {
                    throw RatesConfigurationError.badURL(provider.name, provider.url)
                }
                if let perRequest = provider.maximumPerRequest, perRequest < 1 { throw RatesConfigurationError.badValue(provider.name, "maximumPerRequest must be at least 1") }
                if let pace = provider.minimumSecondsBetweenRequests, !(0...60).contains(pace) { throw RatesConfigurationError.badValue(provider.name, "minimumSecondsBetweenRequests must be 0 to 60") }
            }
            let names = configuration.providers.map(\.name)
            if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw RatesConfigurationError.badValue(duplicate, "two providers have this name")
            }
            if let schedule = configuration.schedule {
                guard (schedule.retryInitialSeconds ?? 30) >= 1, (schedule.retryMaximumSeconds ?? 3_600) >= (schedule.retryInitialSeconds ?? 30) else {
                    throw RatesConfigurationError.badValue("schedule", "retryInitialSeconds must be at least 1 and at most retryMaximumSeconds")
                }
            }
            if let scan = configuration.dropFolder?.scanSeconds, !(0.1...3_600).contains(scan) {
                throw RatesConfigurationError.badValue("dropFolder", "scanSeconds must be 0.1 to 3600")
            }
            try configuration.prices?.validate()
            return configuration
        } catch let error as RatesConfigurationError {
            throw error
        } catch {
            throw RatesConfigurationError.unreadable(file.path, "\(error)")
        }
    }
}

public enum RatesConfigurationError: Error, CustomStringConvertible {
    case unreadable(String, String)
    case badURL(String, String)
    case badValue(String, String)

    public var description: String {
        switch self {
        case .badValue(let name, let reason): "rates configuration, '\(name)': \(reason)"
        case .unreadable(let path, let reason): "cannot read the rates configuration \(path): \(reason)"
        case .badURL(let name, let url): "provider '\(name)' has no http(s) URL: '\(url)'"
        }
    }
}
