import FoundationEssentials
import Dispatch
import Synchronization
import LedgerlyProtocol
import ZeroMQ

/// A `RequestClient` for async code: the blocking client and its socket live on one serial
/// dispatch queue (the socket's one thread at a time), and callers await the result there
/// without blocking a Swift concurrency thread.
///
/// There is no deinit work: the socket closes when the last reference goes, after the queue's
/// last block (a socket may move between threads with a full memory barrier, which the release
/// provides), and a `queue.sync` there could deadlock when that last release runs on `queue`.
public final class AsyncRequestClient: @unchecked Sendable {
    // @unchecked: `client` is only touched on `queue`, which serialises every access.
    private let queue: DispatchQueue
    private let client: RequestClient
    private let service: String

    public init(service: String, endpoint: String, context: ZMQContext,
                timeoutMilliseconds: Int = ClientTiming.standard.timeoutMilliseconds, attempts: Int = ClientTiming.standard.attempts) {
        self.queue = DispatchQueue(label: "ledgerly.client.\(service)")
        self.service = service
        self.client = RequestClient(service: service, endpoint: endpoint, context: context, timeoutMilliseconds: timeoutMilliseconds, attempts: attempts)
    }

    /// A client of one Ledgerly service on `home`, waiting as `timing` says for the caller's role.
    public convenience init(_ service: LedgerlyService, home: LedgerlyHome, context: ZMQContext, timing: ClientTiming = .standard) {
        self.init(service: service.name, endpoint: service.commandEndpoint(in: home), context: context,
                  timeoutMilliseconds: timing.timeoutMilliseconds, attempts: timing.attempts)
    }

    /// Cancelling the calling task ends the wait within `RequestClient.cancellationCheckMilliseconds`
    /// with `.cancelled` (a service shutting down does not wait out a timeout); a write already
    /// sent may still be applied, which its idempotency key makes safe to send again.
    public func call<Request: RequestBody>(_ body: Request, key: String? = nil) async throws(ClientError) -> Request.Reply {
        let cancelled = CancellationFlag()
        if Task.isCancelled { throw .cancelled(service: service) }
        let result: Result<Request.Reply, ClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    do throws(ClientError) {
                        continuation.resume(returning: .success(try self.client.call(body, key: key, isCancelled: cancelled.isSet)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            cancelled.set()
        }
        return try result.get()
    }
}

/// Set once by a cancellation handler (any thread), read by the client's queue.
private final class CancellationFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    @Sendable func isSet() -> Bool { flag.withLock { $0 } }
}
