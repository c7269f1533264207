import FoundationEssentials
import LedgerlyCore

/// One protocol message: the fields every message has, around a typed `body`.
///
/// Field names are short and fixed by `protocol/PROTOCOL.md`: `v` major version, `id` unique
/// message id, `type`, `ts` (ISO 8601 UTC), `key` idempotency key (every write), `re` the
/// request id a reply answers, `body` the payload.
public struct Envelope<Body: Codable & Sendable>: Codable, Sendable {
    public var v: Int
    public var id: String
    public var type: String
    public var ts: String
    public var key: String?
    public var re: String?
    public var body: Body

    public init(type: String, body: Body, key: String? = nil, re: String? = nil, id: String = UUID().uuidString.lowercased(), ts: String = Timestamp.now()) {
        self.v = ProtocolVersion.major
        self.id = id
        self.type = type
        self.ts = ts
        self.key = key
        self.re = re
        self.body = body
    }
}

/// The envelope without its body: what a receiver reads first to route a message.
public struct EnvelopeHeader: Codable, Sendable {
    public var v: Int
    public var id: String
    public var type: String
    public var ts: String
    public var key: String?
    public var re: String?
}

extension EnvelopeHeader {
    /// A request's `ts`, when it is a string, must be a strict timestamp (`Timestamp`), else the
    /// request is `malformed` with `field` `ts`. A missing or mistyped `ts` is left to the header
    /// decoding, which names it the same way. Replies and events are read leniently and not checked.
    public static func checkRequestTimestamp(_ value: Any?) throws(ErrorBody) {
        guard let text = value as? String else { return }
        do { _ = try Timestamp.milliseconds(text, date: nil) } catch {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: ts must be an ISO 8601 UTC time such as 2026-11-21T12:00:00.000Z, got \(InputEcho.quoted(text)): \(error.description)", field: "ts")
        }
    }
}

/// An empty body (`{}`), for requests that carry no parameters.
public struct EmptyBody: Codable, Hashable, Sendable {
    public init() {}
}
