import Dispatch
import Foundation
import LedgerlyRuntime
import Synchronization
import ZeroMQ

/// Large requests (a `tx.import` batch is megabytes of JSON) are decoded on one thread and
/// applied on another, so the store decodes the next batch (and checks and converts its items:
/// `ImportPlan`, D370) while SQLite writes the previous one and a bulk load keeps both cores
/// busy (D71).
///
/// Both stages are first in, first out, and while anything is in the pipeline every request,
/// large or small, goes through it: requests are still applied in the order they arrived (an
/// `tx.import.undo` can never overtake the batch it undoes), and their events are published in
/// seq order. With nothing in flight, small requests are answered at once on the socket thread.
final class BulkRequestPipeline: Sendable {
    /// Frames from this size on take the pipeline.
    static let thresholdBytes = 256 * 1_024
    /// Requests queued at most; beyond that a large request is refused as `unavailable` (the
    /// sender retries), so a flood of batches cannot make the store buffer without bound.
    static let maximumQueued = 4

    private struct State {
        var sockets: ZMQSocketThread?
        var queued = 0
        var closing = false
    }

    private let decoding = DispatchQueue(label: "\(LedgerlyService.store.name).decode")
    private let applying = DispatchQueue(label: "\(LedgerlyService.store.name).apply")
    private let inFlight = DispatchGroup()
    private let state = Mutex(State())

    func attach(_ thread: ZMQSocketThread) { state.withLock { $0.sockets = thread } }

    enum Admission {
        /// Answer on the socket thread now.
        case inline
        /// Queued: the reply will be sent from the pipeline.
        case queued
        /// Too much queued already.
        case busy
        /// The store is stopping: nothing new is taken (what is queued is still applied).
        case closing
    }

    /// Takes `payload` into the pipeline when it is large or the pipeline is not empty, then
    /// decodes, applies, and hands the outcome to `send` (on the applying thread).
    func admit(_ payload: Data, router: StoreRouter, send: @escaping @Sendable (ZMQSocketThread, RouterOutcome) -> Void) -> Admission {
        let admission = state.withLock { state -> Admission in
            // Once closing, a request answered inline could overtake one still queued.
            guard !state.closing else { return .closing }
            guard state.sockets != nil, payload.count >= Self.thresholdBytes || state.queued > 0 else { return .inline }
            guard state.queued < Self.maximumQueued || payload.count < Self.thresholdBytes else { return .busy }
            state.queued += 1
            return .queued
        }
        guard admission == .queued else { return admission }
        inFlight.enter()
        decoding.async { [self] in
            let prepared = router.prepare(payload)
            applying.async { [self] in
                let outcome = prepared()
                // Queued for sending before the count drops: a request answered inline after
                // this sees an empty pipeline, and the socket thread sends what is queued before
                // that answer, so change events still go out in seq order.
                if let thread = state.withLock({ $0.sockets }) { send(thread, outcome) }
                state.withLock { $0.queued -= 1 }
                inFlight.leave()
            }
        }
        return .queued
    }

    /// Stops taking requests and waits until those queued are applied and answered (shutdown).
    func drain() async {
        state.withLock { $0.closing = true }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            inFlight.notify(queue: .global()) { done.resume() }
        }
    }
}
