import FoundationEssentials
import LedgerlyProtocol

/// Builds reply frames: the `.ok` envelope for a body, or the `error` envelope.
public enum ReplyBuilder {
    public static func ok<Body: Codable & Sendable>(_ body: Body, for header: EnvelopeHeader) -> Data {
        encode(Envelope(type: header.type + ".ok", body: body, re: header.id))
    }

    /// An `.ok` reply whose body is already-encoded JSON (a write's stored reply): the body is
    /// spliced in rather than decoded and encoded again, which was most of a write's CPU time.
    /// With sorted keys `body` is the envelope's first key, so the shell starts `{"body":{}`.
    public static func ok(rawBody: Data, for header: EnvelopeHeader) -> Data {
        splice(rawBody, for: header)
    }

    /// The same for a body written as bytes (`tx.export` pages, `tx.list` replies: megabytes),
    /// copied once into the frame: joining the parts with `+` copied a page twice more.
    public static func ok(rawBody: [UInt8], for header: EnvelopeHeader) -> Data {
        splice(rawBody, for: header)
    }

    private static func splice(_ body: some Collection<UInt8>, for header: EnvelopeHeader) -> Data {
        let shell = ok(EmptyBody(), for: header)
        let emptyBodyPrefix = Data(#"{"body":{}"#.utf8)
        guard shell.starts(with: emptyBodyPrefix) else { return shell }
        var frame = Data(capacity: body.count + shell.count)
        frame.append(contentsOf: #"{"body":"#.utf8)
        frame.append(contentsOf: body)
        frame.append(shell.dropFirst(emptyBodyPrefix.count))
        return frame
    }

    public static func error(_ error: ErrorBody, re: String?) -> Data {
        encode(Envelope(type: "error", body: error, re: re ?? ""))
    }

    private static func encode<Body: Codable & Sendable>(_ envelope: Envelope<Body>) -> Data {
        // Encoding our own Codable types cannot fail; an empty frame would be caught by clients.
        (try? MessageCoding.encode(envelope)) ?? Data()
    }
}
