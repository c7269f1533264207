import FoundationEssentials
import LedgerlyProtocol
import ZeroMQ

/// A blocking request/reply client with the ZeroMQ Guide's Lazy Pirate pattern: send, wait up to
/// a timeout, and on silence close the socket, reopen it and resend the same message (same `id`,
/// same idempotency `key`), a bounded number of times. Nothing waits forever.
///
/// Uses a DEALER socket that sends an empty delimiter frame first, so the wire is the same as a
/// REQ socket's, but a late reply to an abandoned attempt can be recognised (by `re`) and skipped.
/// Not thread-safe, like the socket it owns; `AsyncRequestClient` wraps it for async code.
public final class RequestClient {
    public let service: String
    public let endpoint: String
    public let timeoutMilliseconds: Int
    public let attempts: Int
    /// How often a cancellable call looks at its caller's cancellation while it waits.
    public static let cancellationCheckMilliseconds = 100
    private let context: ZMQContext
    private var socket: ZMQSocket?

    public init(service: String, endpoint: String, context: ZMQContext,
                timeoutMilliseconds: Int = ClientTiming.standard.timeoutMilliseconds, attempts: Int = ClientTiming.standard.attempts) {
        self.service = service
        self.endpoint = endpoint
        self.context = context
        self.timeoutMilliseconds = timeoutMilliseconds
        self.attempts = max(1, attempts)
    }

    /// A client of one Ledgerly service on `home`, waiting as `timing` says for the caller's role.
    public convenience init(_ service: LedgerlyService, home: LedgerlyHome, context: ZMQContext, timing: ClientTiming = .standard) {
        self.init(service: service.name, endpoint: service.commandEndpoint(in: home), context: context,
                  timeoutMilliseconds: timing.timeoutMilliseconds, attempts: timing.attempts)
    }

    /// Sends a typed request and returns the typed `.ok` body. Writes get a fresh idempotency key
    /// unless one is given; every retry of this call reuses it.
    /// `isCancelled` is asked between short waits: a caller that gives up (a service shutting
    /// down) is answered with `.cancelled` within `cancellationCheckMilliseconds`.
    public func call<Request: RequestBody>(_ body: Request, key: String? = nil, isCancelled: (() -> Bool)? = nil) throws(ClientError) -> Request.Reply {
        let type = Request.messageType
        let envelope = Envelope(type: type.rawValue, body: body, key: Request.isWrite ? (key ?? UUID().uuidString.lowercased()) : key)
        let frame: Data
        do { frame = try MessageCoding.encode(envelope) } catch { throw .invalidReply("could not encode the request: \(error)") }
        let reply = try exchange(frame, id: envelope.id, isCancelled: isCancelled)
        return try Self.decodeReply(reply, as: Request.Reply.self, expectedType: type.replyType)
    }

    /// Sends one raw frame and returns the raw reply frame. With an `id`, replies whose `re`
    /// differs (late answers to an earlier attempt) are skipped.
    public func exchange(_ frame: Data, id: String?, isCancelled: (() -> Bool)? = nil) throws(ClientError) -> Data {
        // A service that is not running has no socket file: say so at once instead of waiting
        // out every try (a socket left by a killed service still costs the tries).
        if endpoint.hasPrefix("ipc://"), !FileManager.default.fileExists(atPath: String(endpoint.dropFirst("ipc://".count))) {
            throw .notRunning(service: service, endpoint: endpoint)
        }
        for _ in 0..<attempts {
            let payload: Data?
            do throws(ZMQError) {
                payload = try attempt(frame, id: id, isCancelled: isCancelled)
            } catch {
                throw .transport(error)
            }
            if let payload { return payload }
            if let isCancelled, isCancelled() {
                closeSocket()
                throw .cancelled(service: service)
            }
            // Lazy Pirate: the socket may hold a half-finished exchange; start over with a new one.
            closeSocket()
        }
        throw .unavailable(service: service, endpoint: endpoint, attempts: attempts, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// One try: the reply, or nil when none came within the timeout (or the caller gave up).
    private func attempt(_ frame: Data, id: String?, isCancelled: (() -> Bool)?) throws(ZMQError) -> Data? {
        let socket = try openSocket()
        // Never block on send: a full queue counts as a lost try.
        guard try socket.send([Data(), frame], dontWait: true) else { return nil }
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        while true {
            if let isCancelled, isCancelled() { return nil }
            let milliseconds = Int((deadline - ContinuousClock.now) / .milliseconds(1))
            guard milliseconds > 0 else { return nil }
            let slice = isCancelled == nil ? milliseconds : min(milliseconds, Self.cancellationCheckMilliseconds)
            guard try socket.waitForInput(timeoutMilliseconds: slice) else { continue }
            guard let frames = try socket.receive(dontWait: true), let payload = frames.last else { continue }
            if let id, Self.replyTo(payload) != id { continue }
            return payload
        }
    }

    /// The `re` of a reply frame. The body is stepped over rather than decoded (a `tx.export`
    /// page is megabytes, and `JSONDecoder` reads all of it even for the header, D261); a frame
    /// that stepping cannot read is read by `JSONDecoder`, as before.
    static func replyTo(_ payload: Data) -> String? {
        EnvelopeScan.replyTo([UInt8](payload)) ?? (try? MessageCoding.decoder().decode(EnvelopeHeader.self, from: payload))?.re
    }

    public func close() { closeSocket() }

    private func openSocket() throws(ZMQError) -> ZMQSocket {
        if let socket { return socket }
        let socket = try ZMQSocket(context: context, type: .dealer)
        try socket.connect(endpoint)
        self.socket = socket
        return socket
    }

    private func closeSocket() {
        socket?.close()
        socket = nil
    }

    /// Decodes an `.ok` reply, or throws the error reply as `.rejected`.
    public static func decodeReply<Reply: Codable & Sendable>(_ frame: Data, as type: Reply.Type, expectedType: String) throws(ClientError) -> Reply {
        let decoder = MessageCoding.decoder()
        decoder.userInfo[ReplyFrame<Reply>.expectedTypeKey] = expectedType
        guard let read = try? decoder.decode(ReplyFrame<Reply>.self, from: frame) else {
            throw .invalidReply("the reply is not a protocol envelope")
        }
        switch read.outcome {
        case .reply(let reply): return reply
        case .rejected(let error): throw .rejected(error)
        case .unreadableError: throw .invalidReply("the error reply could not be read")
        case .wrongType(let type): throw .invalidReply("expected \(expectedType), got \(type)")
        case .unreadableBody(let error): throw .invalidReply("\(expectedType) body could not be read: \(error)")
        }
    }
}

@available(*, unavailable)
extension RequestClient: Sendable {}
