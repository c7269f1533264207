import Foundation
import LedgerlyRuntime

/// Which providers the rates service asks, read from `<home>/rates.json` when it exists:
///
/// ```json
/// {"providers": [{"name": "ecb", "format": "ecb-daily-xml", "profile": "official",
///                 "url": "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"}]}
/// ```
///
/// Without the file, the ECB's daily reference rates feed the `official` profile. Keys for paid
/// APIs go in `headers` (the file is in the 0700 home, never logged).
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
    }

    public var providers: [Provider]

    public static let standard = RatesConfiguration(providers: [
        Provider(name: "ecb", format: .ecbDailyXML, url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml", profile: "official"),
    ])

    public static func url(in home: LedgerlyHome) -> URL { home.root.appendingPathComponent("rates.json") }

    /// The file's configuration, or the standard one when there is no file. A file that cannot be
    /// read is an error: silently falling back would fetch from somewhere the user did not choose.
    public static func load(from home: LedgerlyHome) throws -> RatesConfiguration {
        let file = url(in: home)
        guard let data = FileManager.default.contents(atPath: file.path) else { return .standard }
        do {
            let configuration = try JSONDecoder().decode(RatesConfiguration.self, from: data)
            for provider in configuration.providers where URL(string: provider.url)?.scheme.map({ ["http", "https"].contains($0) }) != true {
                throw RatesConfigurationError.badURL(provider.name, provider.url)
            }
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

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read the rates configuration \(path): \(reason)"
        case .badURL(let name, let url): "provider '\(name)' has no http(s) URL: '\(url)'"
        }
    }
}
