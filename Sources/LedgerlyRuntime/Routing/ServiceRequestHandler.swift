import FoundationEssentials
import LedgerlyProtocol

/// What a service that follows the change log does with one of its own requests (the rates
/// service's `rates.refresh`): the request's header and frame in, the reply frame out. It runs
/// on its own task, off the socket thread, so a long one holds up nothing else.
public typealias ServiceRequestHandler = @Sendable (EnvelopeHeader, Data) async throws -> Data

extension RequestRoutes where Handler == ServiceRequestHandler {
    /// Adds a request type whose handler gets the strictly decoded body and returns the reply body.
    public mutating func add<Request: RequestBody>(_ type: Request.Type, answer: @escaping @Sendable (Request) async throws -> Request.Reply) {
        add(type as any RequestBody.Type) { header, frame in
            let request = try RequestDecoding.request(Request.self, from: frame)
            return ReplyBuilder.ok(try await answer(request.body), for: header)
        }
    }
}
