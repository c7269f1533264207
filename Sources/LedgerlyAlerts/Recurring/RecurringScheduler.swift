import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Posts (or reminds of) every recurring occurrence that is due, by this service's clock; the
/// store records a `recurring.due` alert with each, in the same transaction.
///
/// Why here: the store only answers requests and never acts by itself, and this service already
/// watches time and state and acts once per key. Each occurrence is sent as `recurring.post` with
/// the key `recurring:<id>:<date>`; the store posts it and moves the template on in one SQL
/// transaction and refuses any occurrence but the one due. So after downtime every missed
/// occurrence is posted once, in order, and a crash or retry at any point posts nothing twice.
actor RecurringScheduler {
    /// How often due occurrences are looked for when nothing wakes the schedule.
    static let pollInterval: Duration = .seconds(5)

    private let store: AsyncRequestClient
    private let clock: ServiceClock
    private let logger: Logger

    init(store: AsyncRequestClient, clock: ServiceClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Handles everything due now. Each template on its own: one that the store refuses (its
    /// wallet archived, say) is logged and retried next time without holding up the others.
    func runDue() async {
        let templates: [RecurringRecord]
        do {
            guard try await store.call(SettingsGetRequest()).onboardingCompleted else { return }
            templates = try await store.call(RecurringListRequest()).recurring
        } catch {
            logger.warning("recurring schedule: cannot reach the store; will retry", metadata: ["error": "\(error)"])
            return
        }
        let today = Timestamp.today(at: clock.now())
        for template in templates where !template.paused {
            var current = template
            do {
                while let due = current.nextRun, due <= today, !current.paused, !Task.isCancelled {
                    // The store posts the occurrence, moves the template on and records the
                    // reminder in one transaction; the key makes a retry change nothing.
                    let reply = try await store.call(RecurringPostRequest(id: current.id, occurrence: due), key: "recurring:\(current.id):\(due)")
                    if let reason = reply.blocked {
                        logger.warning("recurring occurrence blocked; template paused", metadata: ["name": "\(current.name)", "occurrence": "\(due)", "reason": "\(reason)"])
                    } else {
                        logger.info("recurring occurrence", metadata: ["name": "\(current.name)", "occurrence": "\(due)", "mode": "\(current.mode.rawValue)"])
                    }
                    current = reply.recurring
                }
            } catch {
                logger.warning("recurring occurrence failed; will retry", metadata: ["name": "\(current.name)", "occurrence": "\(current.nextRun ?? "")", "error": "\(error)"])
            }
        }
    }
}
