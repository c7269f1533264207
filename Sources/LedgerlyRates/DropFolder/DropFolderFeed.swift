import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Where the drop folder's rates go: a `rates.batch` into the configured profile (source
/// "dropfolder"), and each file's outcome reported like a provider's (`rates.provider.report`
/// under the name "dropfolder"), so `ledgerly status` shows a rejected file and why.
actor DropFolderFeed {
    static let source = "dropfolder"

    private let store: AsyncRequestClient
    private let profileName: String
    private let clock: ServiceClock
    private let logger: Logger
    private var failures = 0

    init(store: AsyncRequestClient, profileName: String, clock: ServiceClock, logger: Logger) {
        self.store = store
        self.profileName = profileName
        self.clock = clock
        self.logger = logger
    }

    /// A store that refuses the rates rejects the file; a store that cannot be reached defers it.
    func deliver(file: String, rates: [DropFolderRate]) async throws(DropFolderDeliveryError) -> Int {
        let profile: RateProfileRecord
        do {
            guard let found = try await store.call(RateProfileListRequest()).profiles.first(where: { $0.name.caseInsensitiveCompare(profileName) == .orderedSame }) else {
                throw DropFolderDeliveryError.rejected("there is no rate profile '\(profileName)' (rates.json dropFolder.profile)")
            }
            profile = found
        } catch let error as DropFolderDeliveryError {
            throw error
        } catch {
            throw .unavailable("\(error)")
        }
        var stored = 0
        let inputs = rates.map { RateInput(base: $0.base, quote: $0.quote, rate: $0.rate.decimalString, asOf: $0.asOf) }
        for start in stride(from: 0, to: inputs.count, by: RateRefresher.batchSize) {
            do {
                // A changed value for a moment already stored is a correction, kept beside the
                // first (D402); the file's count includes it.
                let reply = try await store.call(RateBatchRequest(
                    profileId: profile.id, source: Self.source, rates: Array(inputs[start..<min(start + RateRefresher.batchSize, inputs.count)])))
                stored += reply.stored + reply.corrected
            } catch {
                // Only the file's own fault rejects it; anything else (the store busy, failing,
                // unreachable) leaves it for the next scan, which stores nothing twice.
                if case .rejected(let body) = error, [.validationFailed, .notFound].contains(body.code) { throw .rejected(body.message) }
                throw .unavailable(error.description)
            }
        }
        return stored
    }

    /// Logs the outcome and reports it to the store; a deferred file is only logged (it is retried).
    func record(_ outcome: DropFolderOutcome) async {
        let error: String?
        var stored = 0
        switch outcome.outcome {
        case .stored(let count, _):
            logger.info("drop folder file stored", metadata: ["file": "\(outcome.file)", "outcome": "\(outcome)"])
            failures = 0
            stored = count
            error = nil
        case .rejected(let reason):
            logger.warning("drop folder file rejected", metadata: ["file": "\(outcome.file)", "reason": "\(reason)"])
            failures += 1
            error = RateProviderStatus.fitting("\(outcome.file): \(reason)")
        case .deferred(let reason):
            logger.info("drop folder file deferred", metadata: ["file": "\(outcome.file)", "reason": "\(reason)"])
            return
        }
        let report = RateProviderReportRequest(
            name: Self.source, profile: profileName, attemptedAt: Timestamp.string(from: clock.now()), error: error,
            consecutiveFailures: failures, nextAttemptAt: nil, stored: stored, confirmed: 0)
        do { _ = try await store.call(report) } catch {
            logger.warning("could not record the drop folder's status", metadata: ["error": "\(error)"])
        }
    }
}
