import LedgerlyRuntime
import Logging
import ServiceLifecycle

/// The alerts service's clockwork: due recurring transactions and auto-funding, goal deadlines and
/// stale rates, checked every `RecurringScheduler.pollInterval` or at once when a change wakes it.
///
/// It starts only once the follower holds the instance lock (`ready`): a second instance started
/// by mistake must fail before it posts anything.
struct AlertsSchedule: Service {
    let recurring: RecurringScheduler
    let goals: GoalWatcher
    let staleRates: StaleRateWatcher
    let wakeup: WakeupSignal
    let ready: ReadySignal
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            while !Task.isCancelled {
                await recurring.runDue()
                do { try await goals.tick() } catch { logger.warning("goal schedule failed; will retry", metadata: ["error": "\(error)"]) }
                do { try await staleRates.tick() } catch { logger.warning("stale-rate check failed; will retry", metadata: ["error": "\(error)"]) }
                await wakeup.wait(upTo: RecurringScheduler.pollInterval)
            }
        }
    }
}
