import Foundation
@testable import LedgerlyRates
import LedgerlyRuntime
import Testing

/// A throwaway Ledgerly home for configuration files.
struct LedgerlyHomeFixture {
    let home = LedgerlyHome(root: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("home-\(UUID().uuidString.prefix(8))"))
    init() { try? FileManager.default.createDirectory(at: home.root, withIntermediateDirectories: true) }
    func remove() { try? FileManager.default.removeItem(at: home.root) }
}

/// The pure parts of refreshing: how long a failing provider is left alone, which requests a
/// refresh makes, and which configurations are refused before anything is fetched.
@Suite struct RefreshPlanningTests {
    @Test func theBackoffDoublesUpToItsCapAndHonoursRetryAfter() {
        let backoff = Backoff(initialSeconds: 30, maximumSeconds: 3_600)
        #expect((1...9).map { backoff.delaySeconds(afterFailures: $0) } == [30, 60, 120, 240, 480, 960, 1_920, 3_600, 3_600])
        #expect(backoff.delaySeconds(afterFailures: 1, retryAfter: 600) == 600)  // HTTP 429 asked for longer
        #expect(backoff.delaySeconds(afterFailures: 5, retryAfter: 10) == 480)  // never sooner than the backoff
        #expect(backoff.delaySeconds(afterFailures: 1_000) == 3_600)
        #expect(Backoff(initialSeconds: Int.max / 2, maximumSeconds: Int.max).delaySeconds(afterFailures: 40) == Int.max)  // no overflow
    }

    static func provider(_ url: String, coins: [String: String]? = nil, perRequest: Int? = nil) -> RatesConfiguration.Provider {
        RatesConfiguration.Provider(name: "p", format: .ratesAPIJSON, url: url, profile: "official", coins: coins, maximumPerRequest: perRequest)
    }

    @Test func aFixedURLIsOneRequestAndATemplateAsksOnlyForWhatIsInUse() {
        #expect(ProviderRequestPlan(provider: Self.provider("https://x.test/daily.xml"), needed: ["USD"]).urls == ["https://x.test/daily.xml"])
        #expect(ProviderRequestPlan(provider: Self.provider("https://x.test/daily.xml"), needed: nil).urls == ["https://x.test/daily.xml"])
        let template = Self.provider("https://x.test/latest?from=EUR&to={symbols}", perRequest: 2)
        #expect(ProviderRequestPlan(provider: template, needed: ["USD", "JPY", "GBP", "EUR", "BTC"]).urls == [
            "https://x.test/latest?from=EUR&to=EUR,GBP", "https://x.test/latest?from=EUR&to=JPY,USD",
        ])
        #expect(ProviderRequestPlan(provider: template, needed: nil).urls.isEmpty)  // before setup: nothing to ask for
    }

    @Test func coinIdsAreBatchedAndPricedInTheFiatCurrenciesInUse() {
        let gecko = Self.provider("https://x.test/simple/price?ids={ids}&vs_currencies={vs}", coins: ["bitcoin": "BTC", "ethereum": "ETH", "solana": "SOL"], perRequest: 1)
        #expect(ProviderRequestPlan(provider: gecko, needed: ["BTC", "ETH", "EUR", "USD"]).urls == [
            "https://x.test/simple/price?ids=bitcoin&vs_currencies=eur,usd", "https://x.test/simple/price?ids=ethereum&vs_currencies=eur,usd",
        ])
        #expect(ProviderRequestPlan(provider: gecko, needed: ["EUR"]).urls.isEmpty)  // no coin in use: no request
    }

    @Test func badConfigurationsAreRefusedWithTheReason() throws {
        let home = LedgerlyHomeFixture()
        defer { home.remove() }
        for (json, expected) in [
            (#"{"providers": [{"name": "a", "format": "ecb-daily-xml", "url": "ftp://x", "profile": "official"}]}"#, "no http(s) URL"),
            (#"{"providers": [{"name": "a", "format": "ecb-daily-xml", "url": "https://x", "profile": "official"}, {"name": "a", "format": "ecb-daily-xml", "url": "https://y", "profile": "official"}]}"#, "two providers"),
            (#"{"providers": [], "schedule": {"retryInitialSeconds": 0}}"#, "retryInitialSeconds"),
            (#"{"providers": [{"name": "a", "format": "rates-api-json", "url": "https://x/{symbols}", "profile": "official", "maximumPerRequest": 0}]}"#, "maximumPerRequest"),
            (#"{"providers": [], "dropFolder": {"scanSeconds": 0}}"#, "scanSeconds"),
            (#"{"providers": [{"name": "a"}]}"#, "cannot read"),
        ] {
            try Data(json.utf8).write(to: RatesConfiguration.url(in: home.home))
            #expect(throws: (any Error).self) { try RatesConfiguration.load(from: home.home) }
            do { _ = try RatesConfiguration.load(from: home.home) } catch { #expect("\(error)".contains(expected), "\(error)") }
        }
        try Data(#"{"providers": [{"name": "f", "format": "rates-api-json", "url": "https://x.test/latest?to={symbols}", "profile": "official"}]}"#.utf8)
            .write(to: RatesConfiguration.url(in: home.home))
        #expect(try RatesConfiguration.load(from: home.home).providers.map(\.name) == ["f"])
    }
}
