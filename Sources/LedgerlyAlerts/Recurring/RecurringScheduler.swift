import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Posts (or reminds of) every recurring occurrence that is due, by this service's clock, and
/// raises a `recurring.due` alert for each.
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

    /// Handles everything due now; a failure (the store away) is logged and retried next time.
    func runDue() async {
        do {
            let settings = try await store.call(SettingsGetRequest())
            guard settings.onboardingCompleted else { return }
            let today = Timestamp.today(at: clock.now())
            for template in try await store.call(RecurringListRequest()).recurring where !template.paused {
                var current = template
                while let due = current.nextRun, due <= today, !Task.isCancelled {
                    let reply = try await store.call(RecurringPostRequest(id: current.id, occurrence: due), key: "recurring:\(current.id):\(due)")
                    if settings.notifications.recurringReminders { try await raise(reply) }
                    logger.info("recurring occurrence", metadata: ["name": "\(current.name)", "occurrence": "\(due)", "mode": "\(current.mode.rawValue)"])
                    current = reply.recurring
                }
            }
        } catch {
            logger.warning("recurring schedule failed; will retry", metadata: ["error": "\(error)"])
        }
    }

    private func raise(_ reply: RecurringPostReply) async throws {
        let template = reply.recurring
        let amount = "\(template.template.amount) \(template.template.currency ?? reply.transaction?.currency ?? "")".trimmingCharacters(in: .whitespaces)
        let message = template.mode == .post
            ? "\(template.name): \(amount) posted for \(reply.occurrence)"
            : "\(template.name): \(amount) is due on \(reply.occurrence)"
        let key = "recurring:\(template.id):\(reply.occurrence)"
        _ = try await store.call(AlertRaiseRequest(
            kind: .recurringDue, key: key, subject: template.name, message: message, period: reply.occurrence,
            data: .object([
                "recurringId": .integer(template.id), "occurrence": .string(reply.occurrence), "mode": .string(template.mode.rawValue),
                "transactionId": reply.transaction.map { .integer($0.id) } ?? .null,
            ])))
    }
}
