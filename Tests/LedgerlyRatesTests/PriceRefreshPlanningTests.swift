import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyRates
import LedgerlyRuntime
import Testing

/// The pure parts of pricing: which assets go to which provider, the daily quota, the moment a
/// snapshot is for, keeping keys out of messages, and the `prices` configuration's checks.
@Suite struct PriceRefreshPlanningTests {
    static let now = Timestamp.parse("2026-11-24T10:00:00Z")!

    static func asset(_ id: Int64, _ symbol: String, _ type: AssetType = .stock, _ provider: PriceProvider = .alphavantage, currency: String = "USD",
                      providerId: String? = nil, latest: String? = nil, stale: Int = 60) -> PricedAsset {
        PricedAsset(assetId: id, symbol: symbol, assetType: type, quoteCurrency: currency, provider: provider, providerId: providerId, latestAsOf: latest, staleMinutes: stale)
    }

    @Test func eachProviderGetsOnlyItsAssetsOldestPriceFirst() {
        let plan = PricePlan(assets: [
            Self.asset(1, "IBM", latest: "2026-11-24T07:00:00.000Z"),
            Self.asset(2, "VWRL", .etf, latest: nil),
            Self.asset(3, "MSFT", latest: "2026-11-24T09:45:00.000Z"),  // 15 min old, limit 60: fresh
            Self.asset(4, "BTC", .crypto, .coingecko, providerId: "bitcoin", latest: "2026-11-24T09:50:00.000Z", stale: 15),  // 10 min, limit 15: asked
            Self.asset(5, "ETH", .crypto, .coingecko, latest: nil, stale: 15),
            Self.asset(6, "BTC-EUR", .crypto, .coingecko, currency: "EUR", providerId: "bitcoin", stale: 15),
            Self.asset(7, "HOUSE", .other, .manual),
            Self.asset(8, "AAPL", .stock, .finnhub),
            Self.asset(9, "SHOP", .stock, .alphavantage, providerId: "SHOP.TRT", latest: "2026-11-23T21:00:00.000Z"),
        ], now: Self.now)
        #expect(plan.fresh == 1)
        #expect(plan.work[.alphaVantage]?.keys == ["VWRL", "SHOP.TRT", "IBM"])
        #expect(plan.work[.coinGecko]?.keys == ["bitcoin", "eth"])  // the id, else the symbol in lower case
        #expect(plan.work[.coinGecko]?.assets["bitcoin"]?.map(\.assetId) == [4, 6])  // one coin, two quote currencies
        #expect(plan.work[.finnhub]?.keys == ["AAPL"])
        #expect(plan.work.keys.count == 3)  // the manual asset goes nowhere
        #expect(PricePlan(assets: [], now: Self.now).work.isEmpty)
    }

    @Test func theDailyQuotaCountsRequestsPerUTCDayAndResumes() {
        var quota = DailyQuota(limit: 3, day: "2026-11-24")
        #expect(quota.remaining(at: Self.now) == 3)
        quota.spend(at: Self.now)
        quota.spend(at: Self.now)
        #expect(quota.remaining(at: Self.now) == 1)
        quota.spend(at: Self.now)
        quota.spend(at: Self.now)
        #expect(quota.used == 3)
        #expect(quota.remaining(at: Self.now) == 0)
        // Midnight UTC gives the day's requests back.
        let tomorrow = Timestamp.parse("2026-11-25T00:00:00Z")!
        #expect(DailyQuota.nextDay(after: Self.now) == tomorrow)
        #expect(DailyQuota.nextDay(after: Timestamp.parse("2026-11-24T23:59:59.999Z")!) == tomorrow)
        #expect(quota.remaining(at: tomorrow) == 3)
        #expect(quota.day == "2026-11-25")

        // A restart picks up the count the store kept, for the same day only.
        var restarted = DailyQuota(limit: 25, day: "2026-11-24")
        restarted.resume(day: "2026-11-24", used: 17, at: Self.now)
        #expect(restarted.remaining(at: Self.now) == 8)
        var nextDay = DailyQuota(limit: 25, day: "2026-11-24")
        nextDay.resume(day: "2026-11-23", used: 25, at: Self.now)
        #expect(nextDay.remaining(at: Self.now) == 25)
        var over = DailyQuota(limit: 25, day: "2026-11-24")
        over.resume(day: "2026-11-24", used: 40, at: Self.now)  // a smaller quota configured since
        #expect(over.remaining(at: Self.now) == 0)
        // The provider says the day's limit is reached: nothing more today.
        var told = DailyQuota(limit: 25, day: "2026-11-24")
        told.exhaust(at: Self.now)
        #expect(told.remaining(at: Self.now) == 0)
    }

    @Test func aSnapshotIsForTheProvidersTimeOrTheTradingDay() throws {
        let ibm = Self.asset(1, "IBM")
        let fetchedAt = Self.now
        let close = ProviderPrice(key: "IBM", price: try ExchangeRate(parsing: "231.45"), day: LedgerDate("2026-11-20"))
        let snapshot = PriceRefresher.snapshot(close, of: ibm, from: .alphaVantage, fetchedAt: fetchedAt)
        #expect(snapshot == PriceSnapshotInput(assetId: 1, price: "231.45", currency: "USD", source: "alphavantage", asOf: "2026-11-20T00:00:00.000Z", confidence: .fetched))
        // Today's trading day is live: the fetch time, so a later price that day is a new snapshot.
        let live = ProviderPrice(key: "IBM", price: try ExchangeRate(parsing: "232"), day: LedgerDate("2026-11-24"))
        #expect(PriceRefresher.snapshot(live, of: ibm, from: .alphaVantage, fetchedAt: fetchedAt).asOf == "2026-11-24T10:00:00.000Z")
        let gecko = ProviderPrice(key: "bitcoin", currency: "USD", price: try ExchangeRate(parsing: "97012.45"), asOf: "2026-11-23T14:05:12Z")
        #expect(PriceRefresher.snapshot(gecko, of: Self.asset(4, "BTC", .crypto, .coingecko), from: .coinGecko, fetchedAt: fetchedAt).asOf == "2026-11-23T14:05:12.000Z")
        let bare = ProviderPrice(key: "X", price: .one)
        #expect(PriceRefresher.snapshot(bare, of: ibm, from: .finnhub, fetchedAt: fetchedAt).asOf == "2026-11-24T10:00:00.000Z")
    }

    @Test func keysNeverReachAMessage() {
        let text = "could not connect: https://www.alphavantage.co/query?function=GLOBAL_QUOTE&symbol=IBM&apikey=K3Y+S3CRET"
        let redacted = PriceRefresher.redacted(text, secrets: ["K3Y+S3CRET"])
        #expect(!redacted.contains("S3CRET"))
        #expect(redacted.hasSuffix("apikey=<redacted>"))
        #expect(PriceRefresher.redacted("apikey=K3Y%2BS3CRET", secrets: ["K3Y+S3CRET"]) == "apikey=<redacted>")
        #expect(PriceRefresher.encoded("BRK.B") == "BRK.B")
        #expect(PriceRefresher.encoded("^GSPC") == "%5EGSPC")
        #expect(PriceRefresher.list(["A", "B", "C", "D", "E", "F", "G"]) == "A, B, C, D, E and 2 more")
    }

    @Test func badPriceConfigurationsStopTheServiceWithTheReasonAndNoKey() throws {
        let home = LedgerlyHomeFixture()
        defer { home.remove() }
        for (prices, expected) in [
            (#"{"alphaVantage": {"dailyQuota": 0}}"#, "dailyQuota must be 1 to 100000"),
            (#"{"alphaVantage": {"minimumSecondsBetweenRequests": 0.5}}"#, "at least 1 s"),
            (#"{"alphaVantage": {"url": "ftp://x"}}"#, "no http(s) URL"),
            (#"{"alphaVantage": {"url": "https://x/query?function=GLOBAL_QUOTE"}}"#, "no http(s) URL"),
            (#"{"alphaVantage": {"apiKey": "SEC RET"}}"#, "apiKey must be"),
            (#"{"finnhub": {"enabled": true}}"#, "enabled needs an apiKey"),
            (#"{"coinGecko": {"maximumPerRequest": 0}}"#, "maximumPerRequest"),
        ] {
            try Data(#"{"providers": [], "prices": \#(prices)}"#.utf8).write(to: RatesConfiguration.url(in: home.home))
            do {
                _ = try RatesConfiguration.load(from: home.home)
                Issue.record("\(prices) was accepted")
            } catch {
                #expect("\(error)".contains(expected) || expected == "at least 1 s" && "\(error)".contains("1 to 60"), "\(error)")
                #expect(!"\(error)".contains("SEC RET"))
            }
        }
        try Data(#"{"providers": [], "prices": {"alphaVantage": {"apiKey": "demo", "dailyQuota": 5}, "finnhub": {"enabled": true, "apiKey": "f"}}}"#.utf8)
            .write(to: RatesConfiguration.url(in: home.home))
        let loaded = try RatesConfiguration.load(from: home.home).effectivePrices
        #expect(loaded.dailyQuota == 5)
        #expect(loaded.isFinnhubEnabled)
        #expect(loaded.purges)
        #expect(RatesConfiguration.standard.effectivePrices.dailyQuota == 25)
        #expect(!RatesConfiguration.standard.effectivePrices.isFinnhubEnabled)
        #expect(RatesConfiguration.standard.effectivePrices.effectiveDropFolder.folder(in: home.home).path.hasSuffix("dropfolder/prices"))
    }
}
