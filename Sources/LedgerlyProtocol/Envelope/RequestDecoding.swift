import Foundation
import LedgerlyCore

/// Turns a raw request frame into a typed envelope, or into the error reply that says exactly
/// what is wrong with it.
///
/// Request bodies are strict: a field the body type does not know is refused with
/// `validation_failed` naming it, because a misspelt optional field ("notse") silently dropped
/// would lose a user's data. Replies and events are read leniently (see docs/decisions.md).
public enum RequestDecoding {
    /// A request frame parsed once: its JSON object and its envelope header. The store routes on
    /// the header and reads the body from the same parse (a `tx.import` batch is megabytes of JSON,
    /// and each parse of it costs milliseconds).
    public struct ParsedFrame {
        public let frame: Data
        public let header: EnvelopeHeader
        fileprivate let object: [String: Any]
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
        // JSONSerialization drops an unescaped U+FEFF at the start of a string; escaped, it stays.
        let readable = report.hasByteOrderMark ? StrictJSON.escapingByteOrderMarks(frame) : frame
        guard let object = (try? JSONSerialization.jsonObject(with: readable)) as? [String: Any] else {
            throw ErrorBody(code: .malformed, message: "the frame is not a JSON object")
        }
        if let duplicate = report.duplicate {
            let place = duplicate.parent.isEmpty ? "in the envelope" : "in \(InputEcho.escaped(duplicate.parent))"
            throw ErrorBody(code: .malformed, message: "the member name \(InputEcho.quoted(duplicate.name)) appears more than once \(place): member names must be unique", field: duplicate.path)
        }
        // Version first: a future major version may have changed any other envelope field.
        if let version = object["v"] as? Int, version != ProtocolVersion.major {
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
        try EnvelopeHeader.checkRequestTimestamp(object["ts"])
        var envelopeFields = object
        envelopeFields["body"] = nil
        let header: EnvelopeHeader
        do {
            let data = try JSONSerialization.data(withJSONObject: envelopeFields)
            header = try MessageCoding.decoder().decode(EnvelopeHeader.self, from: data)
        } catch let error as DecodingError {
            let failure = describe(error)
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: \(failure.message)", field: failure.field)
        } catch {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid")
        }
        guard !header.id.isEmpty else {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: field 'id' must not be empty", field: "id")
        }
        guard object["body"] is [String: Any] else {
            throw ErrorBody(code: .malformed, message: object["body"] == nil ? "the envelope is invalid: missing required field 'body'" : "the envelope is invalid: field 'body' must be a JSON object", field: "body")
        }
        return ParsedFrame(frame: frame, header: header, object: object)
    }

    /// Reads the envelope fields and checks the version; does not decode the body.
    public static func header(of frame: Data) throws(ErrorBody) -> EnvelopeHeader {
        try parse(frame).header
    }

    /// The request's `id` when the frame is JSON (`StrictJSON`) with one string `id`, even if the
    /// rest of the envelope is unusable, so an error reply can still name the request it answers
    /// (`re`). Read by the grammar check itself, so it is exactly the id sent.
    /// An id holding U+0000 is not echoed: no string in a reply may contain one (found by the fuzzer).
    public static func bestEffortId(of frame: Data) -> String? {
        guard let id = (try? StrictJSON.check(frame))?.id, !id.unicodeScalars.contains("\u{0}") else { return nil }
        return id
    }

    /// Decodes the whole request with a typed body, refusing missing, mistyped and unknown fields.
    public static func request<Body: Codable & Sendable>(_ type: Body.Type, from frame: Data) throws(ErrorBody) -> Envelope<Body> {
        try decode(type, from: try parse(frame)).request
    }

    /// Like `request(_:from:)` from a frame already parsed, also giving a hash of the body as
    /// sent (independent of key order): what the store keeps to recognise a retry.
    public static func decode<Body: Codable & Sendable>(_ type: Body.Type, from parsed: ParsedFrame) throws(ErrorBody) -> (request: Envelope<Body>, bodyHash: String) {
        guard let sent = parsed.object["body"] as? [String: Any] else {
            throw ErrorBody(code: .malformed, message: "the envelope is invalid: field 'body' must be a JSON object", field: "body")
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
            guard let understood = (try? MessageCoding.encode(typed.body)).flatMap({ try? JSONSerialization.jsonObject(with: $0) }) else {
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
    static func firstUnknownField(in sent: Any, understood: Any, path: String) -> String? {
        if let sentObject = sent as? [String: Any], let understoodObject = understood as? [String: Any] {
            for key in sentObject.keys.sorted() {
                let childPath = "\(path).\(key)"
                guard let counterpart = understoodObject[key] else {
                    if CanonicalHash.isNull(sentObject[key]!) { continue }
                    return childPath
                }
                if let unknown = firstUnknownField(in: sentObject[key]!, understood: counterpart, path: childPath) { return unknown }
            }
        } else if let sentArray = sent as? [Any], let understoodArray = understood as? [Any] {
            for (index, pair) in zip(sentArray, understoodArray).enumerated() {
                if let unknown = firstUnknownField(in: pair.0, understood: pair.1, path: "\(path)[\(index)]") { return unknown }
            }
        }
        return nil
    }

    /// The same check for a type that lists its fields: a dictionary lookup per key sent, where
    /// re-encoding a 20,000-item import and parsing it again would cost more than decoding it.
    static func firstUnknownField(in sent: Any, listed type: any KnownFields.Type, path: String) -> String? {
        if let array = sent as? [Any] {
            for (index, element) in array.enumerated() {
                if let unknown = firstUnknownField(in: element, listed: type, path: "\(path)[\(index)]") { return unknown }
            }
            return nil
        }
        guard let object = sent as? [String: Any] else { return nil }
        // Unsorted (sorting every object's keys costs more than the check); the first unknown
        // field in key order is found only when there is one.
        var unknown: [String] = []
        for (key, value) in object {
            guard let member = type.fields[key] else {
                if !CanonicalHash.isNull(value) { unknown.append("\(path).\(key)") }
                continue
            }
            if let member, let nested = firstUnknownField(in: value, listed: member, path: "\(path).\(key)") { unknown.append(nested) }
        }
        return unknown.min()
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
