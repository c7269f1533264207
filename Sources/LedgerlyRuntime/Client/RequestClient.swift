import Foundation
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
    private let context: ZMQContext
    private var socket: ZMQSocket?

    public init(service: String, endpoint: String, context: ZMQContext, timeoutMilliseconds: Int = 2_500, attempts: Int = 3) {
        self.service = service
        self.endpoint = endpoint
        self.context = context
        self.timeoutMilliseconds = timeoutMilliseconds
        self.attempts = max(1, attempts)
    }

    /// Sends a typed request and returns the typed `.ok` body. Writes get a fresh idempotency key
    /// unless one is given; every retry of this call reuses it.
    public func call<Request: RequestBody>(_ body: Request, key: String? = nil) throws(ClientError) -> Request.Reply {
        let type = Request.messageType
        let envelope = Envelope(type: type.rawValue, body: body, key: type.isWrite ? (key ?? UUID().uuidString.lowercased()) : key)
        let frame: Data
        do { frame = try MessageCoding.encode(envelope) } catch { throw .invalidReply("could not encode the request: \(error)") }
        let reply = try exchange(frame, id: envelope.id)
        return try Self.decodeReply(reply, as: Request.Reply.self, expectedType: type.replyType)
    }

    /// Sends one raw frame and returns the raw reply frame. With an `id`, replies whose `re`
    /// differs (late answers to an earlier attempt) are skipped.
    public func exchange(_ frame: Data, id: String?) throws(ClientError) -> Data {
        for _ in 0..<attempts {
            do throws(ZMQError) {
                let socket = try openSocket()
                // Never block on send (architecture rule 4): a full queue counts as a lost try.
                guard try socket.send([Data(), frame], dontWait: true) else {
                    closeSocket()
                    continue
                }
                let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
                while true {
                    let milliseconds = Int((deadline - ContinuousClock.now) / .milliseconds(1))
                    guard milliseconds > 0, try socket.waitForInput(timeoutMilliseconds: milliseconds) else { break }
                    guard let frames = try socket.receive(dontWait: true), let payload = frames.last else { continue }
                    if let id, (try? MessageCoding.decoder().decode(EnvelopeHeader.self, from: payload))?.re != id { continue }
                    return payload
                }
            } catch {
                throw .transport(error)
            }
            // Lazy Pirate: the socket may hold a half-finished exchange; start over with a new one.
            closeSocket()
        }
        throw .unavailable(service: service, endpoint: endpoint, attempts: attempts, timeoutMilliseconds: timeoutMilliseconds)
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
        guard let header = try? decoder.decode(EnvelopeHeader.self, from: frame) else {
            throw .invalidReply("the reply is not a protocol envelope")
        }
        if header.type == "error" {
            guard let error = try? decoder.decode(Envelope<ErrorBody>.self, from: frame) else {
                throw .invalidReply("the error reply could not be read")
            }
            throw .rejected(error.body)
        }
        guard header.type == expectedType else {
            throw .invalidReply("expected \(expectedType), got \(header.type)")
        }
        do {
            return try decoder.decode(Envelope<Reply>.self, from: frame).body
        } catch {
            throw .invalidReply("\(expectedType) body could not be read: \(error)")
        }
    }
}

@available(*, unavailable)
extension RequestClient: Sendable {}
