import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Monthly net-worth snapshots (docs/networth.md, "Monthly snapshots"): asks the store which
/// ended months have no snapshot (`networth.snapshot.list`, whose `missing` starts at the
/// ledger's first month of history) and takes each, oldest first, with `networth.snapshot.take`
/// and the key `networth:<YYYY-MM>`. The store keys the snapshot table by the month, so a month
/// is taken once whatever happens here (a retry, a restart, a replayed change, two instances):
/// this watcher only decides when to ask, and keeps nothing that matters.
///
/// It asks on start, when setup is completed, after a write dated in an ended month
/// (`PastMonthChange`), when the month changes by this service's clock,
/// after the store restarted (its `status` shows another pid or start time) or its database was
/// replaced, and every `scheduledInterval` besides (a store whose clock is behind this service's
/// had no month to give at the turn of the month). Months are taken in order, so the first one
/// that fails stops the run; it is retried every `pollInterval` until it succeeds.
actor NetWorthSnapshotter {
    /// How often the schedule looks at the store's status and the month when nothing wakes it;
    /// a failed run is retried this often.
    static let pollInterval: Duration = .seconds(5)
    /// The list asked for even when nothing announced a month (D201).
    static let scheduledInterval: Duration = .seconds(600)

    private let store: AsyncRequestClient
    private let clock: ServiceClock
    private let logger: Logger
    /// Wakes the schedule: setup completed, the database replaced.
    let wakeup = WakeupSignal()
    /// A run is wanted: at start, and until one has gone through without a failure.
    private var wanted = true
    /// The month (this service's clock) and the moment of the last complete run.
    private var checkedMonth: String?
    private var lastRun: ContinuousClock.Instant?
    /// The store process seen last ("pid started-at"), to notice a restart.
    private var storeInstance: String?

    init(store: AsyncRequestClient, clock: ServiceClock, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Setup was completed, or the database was replaced: its months are to be looked at afresh.
    func wake() {
        wanted = true
        wakeup.notify()
    }

    /// A change followed from the log: one that writes history in an ended month (a back-dated
    /// transaction) may have made months missing, so they are looked for now rather than at the
    /// next scheduled check (D403). The month is this service's clock's, as at the turn of a month.
    func changed(_ change: ChangePayload) {
        let month = String(Timestamp.today(at: clock.now()).prefix(7))
        if PastMonthChange.touchesEndedMonth(change, currentMonth: month) { wake() }
    }

    /// One turn of the schedule: a run if one is wanted or due. Never throws: a failure is
    /// logged and leaves the run wanted, for the next turn.
    func runIfDue(now: ContinuousClock.Instant = .now) async {
        let status: StatusReply
        do {
            status = try await store.call(StatusRequest())
        } catch {
            if wanted { logger.warning("net worth snapshots: cannot reach the store; will retry", metadata: ["error": "\(error)"]) }
            return
        }
        let instance = "\(status.pid) \(status.startedAt)"
        if let known = storeInstance, known != instance {
            logger.info("net worth snapshots: the store restarted; looking for missing months")
            wanted = true
        }
        storeInstance = instance
        let month = String(Timestamp.today(at: clock.now()).prefix(7))
        if month != checkedMonth || lastRun.map({ now - $0 >= Self.scheduledInterval }) ?? true { wanted = true }
        // Before setup there is no base currency and no history; `setup.completed` wakes us.
        guard wanted, status.setupCompleted ?? false, !Task.isCancelled else { return }
        if let taken = await takeMissing() {
            logger.info("net worth snapshots up to date", metadata: ["taken": "\(taken)", "month": "\(month)"])
            wanted = false
            checkedMonth = month
            lastRun = now
        }
    }

    /// Takes every missing month, oldest first; stops at the first failure. The number of months
    /// taken when every month the store named was taken; nil after a failure.
    private func takeMissing() async -> Int? {
        let missing: [String]
        do {
            missing = try await store.call(NetWorthSnapshotListRequest(recompute: false, includeItems: false)).missing.sorted()
        } catch {
            logger.warning("net worth snapshots: cannot list the missing months; will retry", metadata: ["error": "\(error)"])
            return nil
        }
        for month in missing {
            if Task.isCancelled { return nil }
            do {
                let reply = try await store.call(NetWorthSnapshotTakeRequest(month: month), key: "networth:\(month)")
                let snapshot = reply.snapshot
                logger.info("net worth snapshot taken", metadata: [
                    "month": "\(month)", "netWorth": "\(snapshot.figures.netWorth) \(snapshot.baseCurrency)", "complete": "\(snapshot.complete)",
                    "warnings": "\(snapshot.warnings.count)", "created": "\(reply.created)"])
            } catch {
                // Later months wait: they are taken in order, so `missing` stays a run of months
                // from the oldest one not taken.
                logger.warning("net worth snapshot failed; will retry", metadata: ["month": "\(month)", "error": "\(error)"])
                return nil
            }
        }
        return missing.count
    }
}

extension ClientTiming {
    /// The snapshots' own store client. A snapshot is a net worth computed from the whole history
    /// (a second or more on a large ledger on a busy disk) and nothing waits behind it, so each
    /// try waits 10 s (as the rates service's does) rather than taking a slow answer for a dead
    /// store and sending the request again while the first is still being computed; a store
    /// killed in the middle of a take costs one such wait. Beside the watcher rather than with the
    /// other figures in `ClientTiming.swift`, because only this client uses it.
    static let netWorthSnapshots = ClientTiming(timeoutMilliseconds: 10_000, attempts: 3)
}
