import Foundation
import LedgerlyProtocol

/// Builds reply frames: the `.ok` envelope for a body, or the `error` envelope.
public enum ReplyBuilder {
    public static func ok<Body: Codable & Sendable>(_ body: Body, for header: EnvelopeHeader) -> Data {
        encode(Envelope(type: header.type + ".ok", body: body, re: header.id))
    }

    /// An `.ok` reply whose body is already-encoded JSON (an idempotent replay).
    public static func ok(rawBody: Data, for header: EnvelopeHeader) -> Data {
        let body = (try? MessageCoding.decoder().decode(JSONValue.self, from: rawBody)) ?? .object([:])
        return ok(body, for: header)
    }

    public static func error(_ error: ErrorBody, re: String?) -> Data {
        encode(Envelope(type: "error", body: error, re: re ?? ""))
    }

    private static func encode<Body: Codable & Sendable>(_ envelope: Envelope<Body>) -> Data {
        // Encoding our own Codable types cannot fail; an empty frame would be caught by clients.
        (try? MessageCoding.encode(envelope)) ?? Data()
    }
}
