import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Where the price drop folder's files go (D155): each file's lines are matched to assets by
/// symbol (`invest.asset.list`, case-insensitive) and stored as one `invest.price.record`
/// (confidence `manual`, source `drop-folder`), all or nothing; each file's outcome is reported
/// like a provider's, under `prices.drop-folder`, so `ledgerly status` shows a refused file.
actor PriceDropFolderFeed {
    private let store: AsyncRequestClient
    private let clock: ServiceClock
    private let logger: Logger
    private var failures = 0

    init(store: AsyncRequestClient, clock: ServiceClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Reads and stores one file. A file that is wrong (a bad line, a symbol that is no asset, a
    /// currency that is not the asset's) is refused naming the line; a store that cannot be asked
    /// defers it; a store that refuses the prices rejects it.
    func apply(file: String, data: Data, stamp: String) async -> DropFolderWatcher.FileDelivery {
        let lines: [PriceFileLine]
        do {
            lines = try PriceDropFolderParser().parse(data)
        } catch {
            return .unreadable(Self.reason(error))
        }
        let assets: [AssetRecord]
        do {
            assets = try await store.call(AssetListRequest()).assets
        } catch {
            return .failed(.unavailable("\(error)"))
        }
        var bySymbol: [String: AssetRecord] = [:]
        for asset in assets { bySymbol[asset.symbol.uppercased()] = asset }
        var snapshots: [PriceSnapshotInput] = []
        for line in lines {
            guard let asset = bySymbol[line.symbol.uppercased()] else {
                return .unreadable("line \(line.line): '\(line.symbol)' is not an asset; add it first (ledgerly invest asset add) or fix the symbol")
            }
            if let currency = line.currency, currency != asset.quoteCurrency.uppercased() {
                return .unreadable("line \(line.line): \(asset.symbol) is quoted in \(asset.quoteCurrency), the line says \(currency)")
            }
            snapshots.append(PriceSnapshotInput(assetId: asset.id, price: line.price.decimalString, currency: asset.quoteCurrency,
                                                source: PriceSource.dropFolderSource, asOf: line.asOf ?? stamp, confidence: .manual))
        }
        do {
            return .stored(count: try await store.call(PriceRecordRequest(snapshots: snapshots)).stored, items: snapshots.count)
        } catch {
            // Only the file's own fault rejects it; anything else leaves it for the next scan,
            // which stores nothing twice (the store skips a snapshot it has).
            if case .rejected(let body) = error, [.validationFailed, .notFound].contains(body.code) { return .failed(.rejected(body.message)) }
            return .failed(.unavailable(error.description))
        }
    }

    /// Logs the outcome and reports it to the store; a deferred file is only logged (it is retried).
    func record(_ outcome: DropFolderOutcome) async {
        let error: String?
        var stored = 0
        switch outcome.outcome {
        case .stored(let count, _):
            logger.info("price drop folder file stored", metadata: ["file": "\(outcome.file)", "outcome": "\(outcome)"])
            failures = 0
            stored = count
            error = nil
        case .rejected(let reason):
            logger.warning("price drop folder file rejected", metadata: ["file": "\(outcome.file)", "reason": "\(reason)"])
            failures += 1
            error = RateProviderStatus.fitting("\(outcome.file): \(reason)")
        case .deferred(let reason):
            logger.info("price drop folder file deferred", metadata: ["file": "\(outcome.file)", "reason": "\(reason)"])
            return
        }
        let report = RateProviderReportRequest(
            name: PriceSource.dropFolderStatusName, profile: PriceSource.statusProfile, attemptedAt: Timestamp.string(from: clock.now()), error: error,
            consecutiveFailures: failures, nextAttemptAt: nil, stored: stored, confirmed: 0)
        do { _ = try await store.call(report) } catch {
            logger.warning("could not record the price drop folder's status", metadata: ["error": "\(error)"])
        }
    }

    /// The parser's message, worded for a file the user made.
    static func reason(_ error: ProviderError) -> String {
        switch error {
        case .empty, .noRates: "the file holds no prices: it needs the header line symbol,price,currency,asOf and at least one price"
        case .htmlPage: "the file is an HTML page, not a CSV of prices"
        default: error.description
        }
    }
}
