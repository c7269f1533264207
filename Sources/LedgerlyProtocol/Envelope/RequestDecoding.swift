import FoundationEssentials
import LedgerlyCore

/// Turns a raw request frame into a typed envelope, or into the error reply that says exactly
/// what is wrong with it.
///
/// Request bodies are strict: a field the body type does not know is refused with
/// `validation_failed` naming it, because a misspelt optional field ("notse") silently dropped
/// would lose a user's data. Replies and events are read leniently (see docs/decisions.md).
public enum RequestDecoding {
    /// A request frame parsed once: its envelope header and its body as sent. The store routes on
    /// the header and checks the body's fields and hashes it from the same parse (a `tx.import`
    /// batch is megabytes of JSON, and each parse of it costs milliseconds).
    public struct ParsedFrame {
        public let frame: Data
        public let header: EnvelopeHeader
        fileprivate let body: SentJSON
    }

    /// Parses the frame, reads the envelope fields and checks the version. The checks run in
    /// the order PROTOCOL.md §10 gives: the strict grammar (`StrictJSON`: not JSON, nested too
    /// deep, a duplicated member name are `malformed`), the version, the values no frame may
    /// hold (U+0000 in a string, a number that is not an integer: `validation_failed` with the
    /// path), then the envelope fields and `body` (`malformed`).
    public static func parse(_ frame: Data) throws(ErrorBody) -> ParsedFrame {
        let report: StrictJSON.Report
        do {
            report = try StrictJSON.check(frame)
        } catch {
            throw ErrorBody(code: .malformed, message: "the frame is not valid JSON: \(error.description)")
        }
        let sent = frame.withUnsafeBytes { SentJSON(parsing: $0.bindMemory(to: UInt8.self)) }
        guard let sent, case .object(let members) = sent else {
            throw ErrorBody(code: .malformed, message: "the frame is not a JSON object")
        }
        if let duplicate = report.duplicate {
            let place = duplicate.parent.isEmpty ? "in the envelope" : "in \(InputEcho.escaped(duplicate.parent))"
            throw ErrorBody(code: .malformed, message: "the member name \(InputEcho.quoted(duplicate.name)) appears more than once \(place): member names must be unique", field: duplicate.path)
        }
        // Version first: a future major version may have changed any other envelope field.
        // Read as `JSONSerialization`'s numbers were: `2.0` is 2, `true` and `false` are 1 and 0.
        let version: Int? = switch sent["v"] {
        case .number(let digits):
            Int(digits) ?? Decimal(string: digits).flatMap { exact in
                // A whole `Decimal` prints as plain digits.
                Int(exact.description).flatMap { whole in Decimal(whole) == exact ? whole : nil }
            }
        case .bool(let value): value ? 1 : 0
        default: nil
        }
        if let version, version != ProtocolVersion.major {
            throw ErrorBody(code: .unsupportedVersion, message: "protocol version \(version) is not supported; this service speaks v\(ProtocolVersion.major)", field: "v")
        }
        if let problem = report.valueProblem {
            switch problem.kind {
            case .nulCharacter:
                throw ErrorBody.validation("\(InputEcho.escaped(problem.path)) holds the character U+0000 (NUL), which no string in a request may contain", field: problem.path)
            case .notAnInteger:
                throw ErrorBody.validation("\(InputEcho.escaped(problem.path)) is a number with a fraction or an exponent: numbers in requests are integers (amounts and rates are strings)", field: problem.path)
            case .outOfRange:
                throw ErrorBody.validation("\(InputEcho.escaped(problem.path)) is an integer outside the 64-bit range", field: problem.path)
            }
        }
        if case .string(let ts) = sent["ts"] { try EnvelopeHeader.checkRequestTimestamp(ts) }
        let header: EnvelopeHeader
        do {
            let envelopeFields = SentJSON.object(members.filter { $0.key != "body" })
            header = try MessageCoding.decoder().decode(EnvelopeHeader.self, from: Data(envelopeFields.jsonText.utf8))
        } catch let error as DecodingError {
            let failure = describe(error)
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: \(failure.message)", field: failure.field)
        } catch {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid")
        }
        guard !header.id.isEmpty else {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: field 'id' must not be empty", field: "id")
        }
        guard !hasControlCharacter(header.id) else {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: field 'id' holds a control character (U+0000 to U+001F, U+007F to U+009F), which an id may not: its reply could not repeat it in `re`", field: "id")
        }
        guard let body = sent["body"], case .object = body else {
            throw ErrorBody(code: .malformed, message: sent["body"] == nil ? "the envelope is invalid: missing required field 'body'" : "the envelope is invalid: field 'body' must be a JSON object", field: "body")
        }
        return ParsedFrame(frame: frame, header: header, body: body)
    }

    /// Reads the envelope fields and checks the version; does not decode the body.
    public static func header(of frame: Data) throws(ErrorBody) -> EnvelopeHeader {
        try parse(frame).header
    }

    /// The request's `id` when the frame is JSON (`StrictJSON`) with one string `id`, even if the
    /// rest of the envelope is unusable, so an error reply can still name the request it answers
    /// (`re`). Read by the grammar check itself, so it is exactly the id sent.
    /// An id holding a control character is not echoed (`re` is ""): no string in a reply may
    /// contain U+0000 (found by the fuzzer), and PROTOCOL.md §3 refuses every control character in
    /// an id rather than promise an echo for some of them and not others.
    public static func bestEffortId(of frame: Data) -> String? {
        guard let id = (try? StrictJSON.check(frame))?.id, !hasControlCharacter(id) else { return nil }
        return id
    }

    /// U+0000–U+001F and U+007F–U+009F (Unicode's `Cc`): what an `id` may not hold (§3).
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// Decodes the whole request with a typed body, refusing missing, mistyped and unknown fields.
    public static func request<Body: Codable & Sendable>(_ type: Body.Type, from frame: Data) throws(ErrorBody) -> Envelope<Body> {
        try decode(type, from: try parse(frame)).request
    }

    /// Like `request(_:from:)` from a frame already parsed, also giving a hash of the body as
    /// sent (independent of key order): what the store keeps to recognise a retry.
    public static func decode<Body: Codable & Sendable>(_ type: Body.Type, from parsed: ParsedFrame) throws(ErrorBody) -> (request: Envelope<Body>, bodyHash: String) {
        let sent = parsed.body
        let header = parsed.header
        if header.v == ProtocolVersion.major, let readable = Body.self as? any SentJSONDecodable.Type, let body = readable.init(sent: sent) as? Body {
            // No unknown-field check: `init?(sent:)` gives nil for a body with an unknown field.
            return (Envelope(type: header.type, body: body, key: header.key, re: header.re, id: header.id, ts: header.ts), CanonicalHash.of(sent))
        }
        let typed: Envelope<Body>
        do {
            typed = try MessageCoding.decoder().decode(Envelope<Body>.self, from: parsed.frame)
        } catch let error as DecodingError {
            let failure = describe(error)
            throw ErrorBody.validation(failure.message, field: failure.field)
        } catch {
            throw ErrorBody.validation("the body could not be read: \(error)", field: "body")
        }
        let unknown: String?
        if let listed = Body.self as? any KnownFields.Type {
            unknown = firstUnknownField(in: sent, listed: listed, path: "body")
        } else {
            let understood = (try? MessageCoding.encode(typed.body)).flatMap { encoded in
                encoded.withUnsafeBytes { SentJSON(parsing: $0.bindMemory(to: UInt8.self)) }
            }
            guard let understood else {
                throw ErrorBody(code: .internal, message: "could not re-encode the request body")
            }
            unknown = firstUnknownField(in: sent, understood: understood, path: "body")
        }
        if let unknown {
            throw ErrorBody.validation("unknown field \(InputEcho.quoted(unknown))", field: unknown)
        }
        return (typed, CanonicalHash.of(sent))
    }

    /// Walks what was sent next to what the body type read back; a key that was sent with a
    /// non-null value and is absent from the re-encoded body is one the type does not know.
    /// Only the shape is compared (objects and arrays), never values, so numbers need no care.
    static func firstUnknownField(in sent: SentJSON, understood: SentJSON, path: String) -> String? {
        switch (sent, understood) {
        case (.object(let sentMembers), .object):
            for member in sentMembers.sorted(by: { $0.key < $1.key }) {
                let childPath = "\(path).\(member.key)"
                guard let counterpart = understood[member.key] else {
                    if member.value.isNull { continue }
                    return childPath
                }
                if let unknown = firstUnknownField(in: member.value, understood: counterpart, path: childPath) { return unknown }
            }
        case (.array(let sentElements), .array(let understoodElements)):
            for (index, pair) in zip(sentElements, understoodElements).enumerated() {
                if let unknown = firstUnknownField(in: pair.0, understood: pair.1, path: "\(path)[\(index)]") { return unknown }
            }
        default:
            break
        }
        return nil
    }

    /// The same check for a type that lists its fields: a dictionary lookup per key sent, where
    /// re-encoding a 20,000-item import and parsing it again would cost more than decoding it.
    static func firstUnknownField(in sent: SentJSON, listed type: any KnownFields.Type, path: String) -> String? {
        unknownFieldPath(in: sent, listed: type).map { path + $0 }
    }

    /// The path of the first unknown field below `sent`, relative to it (`.items[3].note`).
    /// Written only once one is found: formatting every member's and element's path on the way
    /// down was a fifth of checking a `tx.import` batch.
    private static func unknownFieldPath(in sent: SentJSON, listed type: any KnownFields.Type) -> String? {
        switch sent {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let unknown = unknownFieldPath(in: element, listed: type) { return "[\(index)]" + unknown }
            }
            return nil
        case .object(let members):
            // The first unknown field in key order, as the sorted walk above finds it; sorting
            // is left for when there is one. The paths found share the caller's prefix, so the
            // least of them is the least of the whole paths.
            var unknown: [String] = []
            for member in members {
                guard let listed = type.fields[member.key] else {
                    if !member.value.isNull { unknown.append(".\(member.key)") }
                    continue
                }
                if let listed, let nested = unknownFieldPath(in: member.value, listed: listed) { unknown.append(".\(member.key)" + nested) }
            }
            return unknown.min()
        default:
            return nil
        }
    }

    /// A readable sentence and a field path for a `DecodingError`.
    public static func describe(_ error: DecodingError) -> (message: String, field: String?) {
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return ("missing required field \(InputEcho.quoted(field))", field)
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return ("field \(InputEcho.quoted(field)) has the wrong type (expected \(typeName(type)))", field)
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return ("field \(InputEcho.quoted(field)) must not be null (expected \(typeName(type)))", field)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if context.codingPath.isEmpty { return ("the JSON is malformed", nil) }
            return ("field \(InputEcho.quoted(field)) has an invalid value", field)
        @unknown default:
            return ("the message could not be read", nil)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        case is [Any].Type: "an array"
        default: "\(type)".contains("Dictionary") ? "an object" : "\(type)"
        }
    }

}
