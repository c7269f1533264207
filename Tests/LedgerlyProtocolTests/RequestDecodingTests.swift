import Foundation
import LedgerlyProtocol
import Testing

@Suite struct RequestDecodingTests {
    static func frame(_ body: String, type: String = "tx.create") -> Data {
        Data(#"{"v":1,"id":"a","type":"\#(type)","ts":"2026-11-21T12:00:00Z","key":"k","body":\#(body)}"#.utf8)
    }

    @Test func decodesAValidRequest() throws {
        let request = try RequestDecoding.request(TransactionCreateRequest.self, from: Self.frame(#"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","splits":[{"amount":"1.00","categoryId":2,"memo":null}]}"#))
        #expect(request.body.amount == "3.00")
        #expect(request.body.splits?.first?.memo == nil)
    }

    @Test(arguments: [
        (#"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","note":"x"}"#, "body.note"),
        (#"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","splits":[{"amount":"1","categoryId":1,"x":1}]}"#, "body.splits[0].x"),
        (#"{"kind":"expense","walletId":1,"date":"2026-11-21"}"#, "body.amount"),
        (#"{"kind":"expense","walletId":"one","amount":"3.00","date":"2026-11-21"}"#, "body.walletId"),
        (#"{"kind":"refund","walletId":1,"amount":"3.00","date":"2026-11-21"}"#, "body.kind"),
    ])
    func namesTheFieldAtFault(body: String, field: String) {
        #expect {
            _ = try RequestDecoding.request(TransactionCreateRequest.self, from: Self.frame(body))
        } throws: { error in
            (error as? ErrorBody)?.field == field && (error as? ErrorBody)?.code == .validationFailed
        }
    }

    @Test func refusesOtherMajorVersionsBeforeAnythingElse() {
        #expect(throws: ErrorBody(code: .unsupportedVersion, message: "protocol version 2 is not supported; this service speaks v1", field: "v")) {
            _ = try RequestDecoding.header(of: Data(#"{"v":2}"#.utf8))
        }
    }

    @Test func ignoresUnknownEnvelopeFields() throws {
        let header = try RequestDecoding.header(of: Data(#"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","trace":"x","body":{}}"#.utf8))
        #expect(header.type == "status")
    }

    static func refusal(_ text: String) -> ErrorBody? {
        refusal(Data(text.utf8))
    }

    static func refusal(_ frame: Data) -> ErrorBody? {
        do {
            _ = try RequestDecoding.parse(frame)
            return nil
        } catch {
            return error
        }
    }

    static let envelopeStart = #"{"v":1,"id":"a","ts":"2026-11-21T12:00:00.000Z","key":"k","#

    @Test(arguments: [
        (#"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z"}"#, "body"),
        (#"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":null}"#, "body"),
        (#"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":[]}"#, "body"),
        (#"{"v":1,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":"{}"}"#, "body"),
        (#"{"v":1,"id":"","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, "id"),
        (#"{"v":1,"id":"a","type":"status","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, "type"),
        (#"{"v":1,"id":"a","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k","body":{"name":"A","name":"B"}}"#, "body.name"),
    ])
    func envelopeProblemsAreMalformed(frame: String, field: String) {
        let error = Self.refusal(frame)
        #expect(error?.code == .malformed, "\(error?.message ?? "accepted")")
        #expect(error?.field == field)
    }

    @Test(arguments: [
        (#""type":"tag.create","body":{"name":"nul\u0000after"}}"#, "body.name"),
        (#""type":"tx.create","body":{"splits":[{"memo":"x"},{"memo":"y\u0000"}]}}"#, "body.splits[1].memo"),
        (#""type":"status\u0000","body":{}}"#, "type"),
        (#""type":"status","body":{},"x\u0000":1}"#, #"x\u0000"#),
        (#""type":"status","body":{"limit":2.0}}"#, "body.limit"),
        (#""type":"status","body":{"id":1e2}}"#, "body.id"),
    ])
    func nulAndNonIntegerNumbersAreValidationFailures(rest: String, field: String) {
        let error = Self.refusal(Self.envelopeStart + rest)
        #expect(error?.code == .validationFailed, "\(error?.message ?? "accepted")")
        #expect(error?.field == field)
    }

    @Test func versionOneWrittenAsAFractionIsRefused() {
        let error = Self.refusal(#"{"v":1.0,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#)
        #expect(error?.code == .validationFailed && error?.field == "v")
        #expect(Self.refusal(#"{"v":1e0,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#)?.field == "v")
        // The version is checked first and reads 2.0 as 2.
        #expect(Self.refusal(#"{"v":2.0,"id":"a","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#)?.code == .unsupportedVersion)
    }

    @Test func integersBeyond64BitsAreRefusedByTheFieldsType() {
        #expect {
            _ = try RequestDecoding.request(TransactionCreateRequest.self, from: Self.frame(#"{"kind":"expense","walletId":99999999999999999999,"amount":"3.00","date":"2026-11-21"}"#))
        } throws: { error in
            (error as? ErrorBody)?.field == "body.walletId" && (error as? ErrorBody)?.code == .validationFailed
        }
    }

    @Test func theCheckOrderIsGrammarDuplicatesVersionValuesEnvelope() {
        // A grammar error beats everything found after it.
        #expect(Self.refusal(#"{"v":2,"id":"a\u0000","id":"b",}"#)?.code == .malformed)
        // A duplicate beats the version (which `v` would it be?).
        #expect(Self.refusal(#"{"v":2,"v":1,"id":"a","type":"status","ts":"t","body":{}}"#)?.field == "v")
        #expect(Self.refusal(#"{"v":2,"v":1,"id":"a","type":"status","ts":"t","body":{}}"#)?.code == .malformed)
        // The version beats the values (another major version may allow them).
        #expect(Self.refusal(#"{"v":2,"id":"a","type":"status","ts":"t","body":{"x":"\u0000"}}"#)?.code == .unsupportedVersion)
        // The values beat the envelope fields.
        #expect(Self.refusal(#"{"v":1,"id":"a","type":"status","body":{"x":"\u0000"}}"#)?.code == .validationFailed)
    }

    @Test func stringsRoundTripExactly() throws {
        let id = "\u{FEFF}id\u{FEFF}"
        let frame = Data("{\"v\":1,\"id\":\"\(id)\",\"type\":\"status\",\"ts\":\"2026-11-21T12:00:00.000Z\",\"key\":\"\u{FEFF}k\",\"body\":{}}".utf8)
        let parsed = try RequestDecoding.parse(frame)
        #expect(Array(parsed.header.id.unicodeScalars) == Array(id.unicodeScalars))
        #expect(Array((parsed.header.key ?? "").unicodeScalars) == Array("\u{FEFF}k".unicodeScalars))
        #expect(RequestDecoding.bestEffortId(of: frame).map { Array($0.unicodeScalars) } == Array(id.unicodeScalars))
        let request = try RequestDecoding.request(TagCreateRequest.self, from: Data("{\"v\":1,\"id\":\"a\",\"type\":\"tag.create\",\"ts\":\"2026-11-21T12:00:00.000Z\",\"key\":\"k\",\"body\":{\"name\":\"\u{FEFF}T\"}}".utf8))
        #expect(Array(request.body.name.unicodeScalars) == Array("\u{FEFF}T".unicodeScalars))
    }

    @Test func aBodyWithAByteOrderMarkHashesDifferentlyFromOneWithout() throws {
        func hash(_ name: String) throws -> String {
            let frame = Data("{\"v\":1,\"id\":\"a\",\"type\":\"tag.create\",\"ts\":\"2026-11-21T12:00:00.000Z\",\"key\":\"k\",\"body\":{\"name\":\"\(name)\"}}".utf8)
            return try RequestDecoding.decode(TagCreateRequest.self, from: RequestDecoding.parse(frame)).bodyHash
        }
        #expect(try hash("\u{FEFF}T") != hash("T"))
    }

    @Test func errorMessagesQuoteInputCappedAndEscaped() {
        let longType = String(repeating: "t", count: 100_000)
        let unknown: ErrorBody?
        do {
            _ = try RequestDecoding.request(TransactionCreateRequest.self, from: Data((Self.envelopeStart + #""type":"tx.create","body":{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","\#(longType)\n":1}}"#).utf8))
            unknown = nil
        } catch {
            unknown = error
        }
        #expect(unknown?.code == .validationFailed)
        #expect((unknown?.message.count ?? .max) < 200, "\(unknown?.message.prefix(300) ?? "")")
        #expect(unknown?.message.contains("\n") == false)
        let duplicate = Self.refusal(#"{"v":1,"id":"a","type":"status","ts":"t","body":{},"\#(longType)":1,"\#(longType)":2}"#)
        #expect(duplicate?.code == .malformed)
        #expect((duplicate?.message.count ?? .max) < 200)
    }
}
