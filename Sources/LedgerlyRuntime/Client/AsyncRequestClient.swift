import Foundation
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

    public init(service: String, endpoint: String, context: ZMQContext, timeoutMilliseconds: Int = 2_500, attempts: Int = 3) {
        self.queue = DispatchQueue(label: "ledgerly.client.\(service)")
        self.client = RequestClient(service: service, endpoint: endpoint, context: context, timeoutMilliseconds: timeoutMilliseconds, attempts: attempts)
    }

    public func call<Request: RequestBody>(_ body: Request, key: String? = nil) async throws(ClientError) -> Request.Reply {
        let result: Result<Request.Reply, ClientError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(ClientError) {
                    continuation.resume(returning: .success(try self.client.call(body, key: key)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
