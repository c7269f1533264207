import ArgumentParser
import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRates
import LedgerlyRuntime
import ZeroMQ

/// `ledgerly-bench ecb-import`: parses the ECB's full reference-rate history (every currency
/// since 1999) and stores it in a real `ledgerly-store` through the protocol, in `rates.batch`
/// requests of 10,000 rates (one SQL transaction each), then checks a conversion against it.
struct ECBImportBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ecb-import",
        abstract: "Time to parse and import the full ECB historical CSV (deploy/fetch-ecb-history.sh gets it).")

    @Option(help: "eurofxref-hist.csv (default: what deploy/fetch-ecb-history.sh puts in .build/ecb).") var csv = ".build/ecb/eurofxref-hist.csv"
    @Option(help: "Rates per rates.batch request.") var batch = 10_000

    func run() throws {
        guard let data = FileManager.default.contents(atPath: csv) else {
            throw BenchmarkError.missingInput("\(csv) not found: run deploy/fetch-ecb-history.sh first")
        }
        var started = ContinuousClock.now
        let rates = try ECBHistoryCSVParser().parse(data)
        let parsing = ContinuousClock.now - started
        let days = Set(rates.compactMap(\.date)).count
        print("ledgerly-bench ecb-import: \(csv), \(data.count) bytes, \(days) days, \(rates.count) rates")
        print("parse: \(String(format: "%.2f", parsing.seconds)) s (\(Int(Double(rates.count) / parsing.seconds)) rates/s)")

        let home = LedgerlyHome(root: URL(fileURLWithPath: "/tmp").appendingPathComponent("lbench-\(UUID().uuidString.prefix(8))"))
        try home.prepare()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let store = try ServiceProcess(home: home, arguments: [])
        defer { store.terminate() }
        let context = try ZMQContext()
        let client = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 60_000, attempts: 1))
        _ = try client.call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false))
        let inputs = rates.map { rate in
            // The ECB publishes its reference rates around 16:00 CET.
            RateInput(base: rate.base, quote: rate.quote, rate: rate.rate.decimalString, asOf: "\(rate.date?.description ?? "1999-01-04")T15:00:00.000Z")
        }
        started = ContinuousClock.now
        var stored = 0
        for chunk in stride(from: 0, to: inputs.count, by: batch) {
            stored += try client.call(RateBatchRequest(profileId: 1, source: "ecb", rates: Array(inputs[chunk..<min(chunk + batch, inputs.count)]))).stored
        }
        let importing = ContinuousClock.now - started
        print("import through the store: \(String(format: "%.2f", importing.seconds)) s (\(Int(Double(stored) / importing.seconds)) rates/s, \(stored) stored, \((inputs.count + batch - 1) / batch) batches)")
        let size = (try? FileManager.default.attributesOfItem(atPath: home.databaseURL.path)[.size] as? Int) ?? 0
        print("database: \(size / 1_048_576) MiB (plus WAL)")
        let check = try client.call(ConvertRequest(amount: "100", from: "USD", to: "JPY", at: "2026-10-30"))
        print("check: 100 USD on 2026-10-30 = \(check.result) JPY via \(check.snapshot.source) (by hand: 100 / 1.1172 × 175.68 = 15725)")
    }
}
