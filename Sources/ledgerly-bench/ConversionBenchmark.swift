import ArgumentParser
import Foundation
import LedgerlyCore

/// `ledgerly-bench conversions`: conversions per second of the pure engine, for each kind of path
/// (direct, inverted, through a pivot), with the ECB's reference rates of 2026-10-30.
struct ConversionBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conversions",
        abstract: "Conversions per second of the exchange-rate engine (direct, inverted, cross).")

    @Option(help: "Conversions per path kind.") var count = 1_000_000

    func run() throws {
        let asOf = Date(timeIntervalSince1970: 1_793_372_400)  // 2026-10-30T15:00:00Z
        let quotes = try [("USD", "1.1172"), ("JPY", "175.68"), ("GBP", "0.8338"), ("CHF", "0.9194")].map { code, rate in
            RateQuote(pair: CurrencyPair("EUR", code), rate: try ExchangeRate(parsing: rate), asOf: asOf, source: "ecb", confidence: .fetched)
        }
        let converter = CurrencyConverter(book: RateBook(quotes: quotes), pivots: ["EUR"])
        let cases: [(String, Currency, Currency)] = [
            ("direct  EUR→JPY", try Currency(code: "EUR"), try Currency(code: "JPY")),
            ("inverse USD→EUR", try Currency(code: "USD"), try Currency(code: "EUR")),
            ("cross   USD→JPY", try Currency(code: "USD"), try Currency(code: "JPY")),
        ]
        print("ledgerly-bench conversions: \(count) per path, ECB rates of 2026-10-30, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        for (name, from, to) in cases {
            var checksum: Int64 = 0
            let started = ContinuousClock.now
            for index in 0..<count {
                let money = Money(minorUnits: Int64(index % 1_000_000) + 1, currency: from)
                checksum &+= try converter.convert(money, to: to).result.minorUnits
            }
            let elapsed = ContinuousClock.now - started
            let seconds = elapsed.seconds
            print("\(name): \(Int(Double(count) / seconds)) conversions/s (\(String(format: "%.2f", seconds)) s, checksum \(checksum))")
        }
    }
}
