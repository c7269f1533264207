import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Allocation drift: asks the store to check the allocation targets (`invest.allocation.check`)
/// after every change that can move the portfolio's shares, and on a slow schedule besides. The
/// store keeps the drift episodes with the targets and raises one `allocation.drift` alert per
/// episode in the same SQL transaction (`allocation.drift:<dimension>:<key>:<episode>`), so a
/// check repeated, retried or replayed after a restart raises nothing twice; this watcher only
/// decides when to ask.
///
/// Changes are coalesced (D171): a change marks a check as wanted and wakes `AllocationSchedule`,
/// which sends one check for everything that arrived meanwhile. Importing a broker file records an
/// event per trade; checking after each would value the whole portfolio thousands of times.
actor AllocationWatcher {
    /// The check sent without any change: a safety net for what no event announces (D172).
    static let scheduledInterval: Duration = .seconds(600)

    private let store: AsyncRequestClient
    private let logger: Logger
    /// Wakes the schedule when a change wants a check.
    let wakeup = WakeupSignal()
    /// Checks asked for (by changes, a reset, the schedule) and the last one answered: a check is
    /// wanted while `requested > answered`. One is wanted at start: changes made while the
    /// service was down may have left a target drifting.
    private var requested = 1
    private var answered = 0
    /// The check being sent: a retry after a failure is the same request with the same key,
    /// unless a change came since (then it is a new check with a new key).
    private var attempt: (generation: Int, key: String)?
    private var lastCheck: ContinuousClock.Instant?
    /// The targets drifting at the last check, to log the ones that came back (nil until the
    /// first check of this process).
    private var drifting: Set<String>?

    init(store: AsyncRequestClient, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Whether a change can move the allocation: trades, prices, targets, an asset's group or
    /// type, and rates (holdings in other currencies are converted at the latest rates).
    static func moves(_ change: ChangePayload) -> Bool {
        switch change {
        case .tradeRecorded, .tradeDeleted, .tradesImported, .pricesUpdated, .allocationUpdated, .assetUpdated, .ratesUpdated: true
        default: false
        }
    }

    func handle(_ change: ChangePayload) {
        guard Self.moves(change) else { return }
        requested += 1
        wakeup.notify()
    }

    /// The database was replaced: check it afresh.
    func reset() {
        requested += 1
        drifting = nil
        wakeup.notify()
    }

    /// Sends one check if a change wants it or the schedule's interval has passed. A failure
    /// (store down, busy) leaves the check wanted, for the next turn.
    func checkIfDue(now: ContinuousClock.Instant = .now) async {
        if requested == answered, lastCheck.map({ now - $0 >= Self.scheduledInterval }) ?? true { requested += 1 }
        guard requested > answered else { return }
        do {
            guard try await store.call(SettingsGetRequest()).onboardingCompleted else { return }
            if attempt?.generation != requested { attempt = (requested, "allocation-check:\(UUID().uuidString.lowercased())") }
            guard let attempt else { return }
            let reply = try await store.call(AllocationCheckRequest(), key: attempt.key)
            // A change that arrived during the check (this actor is reentrant) wants another one.
            answered = max(answered, attempt.generation)
            self.attempt = nil
            lastCheck = now
            for alert in reply.raised {
                logger.info("raised", metadata: ["key": "\(alert.key)"])
            }
            for target in (drifting ?? []).subtracting(reply.drifting).sorted() {
                logger.info("allocation drift ended", metadata: ["target": "\(target)"])
            }
            drifting = Set(reply.drifting)
        } catch {
            logger.warning("allocation check failed; will retry", metadata: ["error": "\(error)"])
        }
    }
}
