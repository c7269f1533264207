import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import ZeroMQ

/// ledgerly-web's one way to the ledger: the store's protocol, as the CLI uses it (D510). Reads
/// go as they are; every write carries an idempotency key, which a form brings with it so a
/// double submit (or a retry after a timeout) is applied once.
public final class WebStore: Sendable {
    private let client: AsyncRequestClient

    public init(home: LedgerlyHome, context: ZMQContext) {
        client = AsyncRequestClient(.store, home: home, context: context, timing: .standard)
    }

    public func read<Request: ReadRequest>(_ request: Request) async throws(ClientError) -> Request.Reply {
        try await client.call(request)
    }

    /// A write under `key` (the form's idempotency key): sending it again returns the first reply.
    public func write<Request: WriteRequest>(_ request: Request, key: String) async throws(ClientError) -> Request.Reply {
        try await client.call(request, key: key)
    }
}
