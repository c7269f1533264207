import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing
import ZeroMQ

extension EndToEndTests {
    /// Reliability rule 7 (docs/architecture.md): bad input gets a clear error, changes nothing, and the store keeps serving.
    @Suite struct BadInputTests {
        struct BadRequest: CustomTestStringConvertible, Sendable {
            let name: String
            let frame: String
            let code: ErrorCode
            let field: String?
            var testDescription: String { name }
        }

        static func envelope(_ type: String, _ body: String, key: String? = "k-\(UUID().uuidString)", version: Int = 1) -> String {
            let keyField = key.map { #","key":"\#($0)""# } ?? ""
            return #"{"v":\#(version),"id":"bad-1","type":"\#(type)","ts":"2026-11-21T12:00:00.000Z"\#(keyField),"body":\#(body)}"#
        }

        static let cases: [BadRequest] = [
            .init(name: "malformed JSON", frame: #"{"v":1,"id":"x","type":"#, code: .malformed, field: nil),
            .init(name: "not an object", frame: "[1,2,3]", code: .malformed, field: nil),
            .init(name: "unknown type", frame: envelope("wallet.explode", "{}"), code: .unknownType, field: "type"),
            .init(name: "wrong protocol version", frame: envelope("wallet.list", "{}", version: 2), code: .unsupportedVersion, field: "v"),
            .init(name: "envelope field missing", frame: #"{"v":1,"type":"wallet.list","ts":"2026-11-21T12:00:00Z","body":{}}"#, code: .malformed, field: "id"),
            .init(name: "write without key", frame: envelope("wallet.create", #"{"name":"A","currency":"EUR"}"#, key: nil), code: .validationFailed, field: "key"),
            .init(name: "missing body field", frame: envelope("wallet.create", #"{"name":"A"}"#), code: .validationFailed, field: "body.currency"),
            .init(name: "extra body field", frame: envelope("wallet.create", #"{"name":"A","currency":"EUR","colour":"red"}"#), code: .validationFailed, field: "body.colour"),
            .init(name: "wrong field type", frame: envelope("wallet.create", #"{"name":"A","currency":"EUR","startingBalance":12.5}"#), code: .validationFailed, field: "body.startingBalance"),
            .init(name: "amount 1e3", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"1e3","date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "amount NaN", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"NaN","date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "amount as a JSON number", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":12,"date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "three decimals in EUR", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"12.345","date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "decimals in JPY", frame: envelope("tx.create", #"{"kind":"expense","walletId":2,"amount":"5.5","date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "negative amount", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"-3.00","date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "zero amount", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"0","date":"2026-11-21"}"#), code: .validationFailed, field: "body.amount"),
            .init(name: "unknown wallet", frame: envelope("tx.create", #"{"kind":"expense","walletId":999,"amount":"3.00","date":"2026-11-21"}"#), code: .notFound, field: "body.walletId"),
            .init(name: "unknown kind", frame: envelope("tx.create", #"{"kind":"gift","walletId":1,"amount":"3.00","date":"2026-11-21"}"#), code: .validationFailed, field: "body.kind"),
            .init(name: "impossible date", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-02-30"}"#), code: .validationFailed, field: "body.date"),
            .init(name: "splits that do not add up", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"30.00","date":"2026-11-21","splits":[{"amount":"20.00","categoryId":1},{"amount":"5.00","categoryId":1}]}"#), code: .validationFailed, field: "body.splits"),
            .init(name: "split with unknown field", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"30.00","date":"2026-11-21","splits":[{"amount":"20.00","categoryId":1},{"amount":"10.00","categoryId":1,"memoo":"x"}]}"#), code: .validationFailed, field: "body.splits[1].memoo"),
            .init(name: "currency code with digits", frame: envelope("wallet.create", #"{"name":"A","currency":"EU1"}"#), code: .validationFailed, field: "body.currency"),
            .init(name: "currency code of 21 letters", frame: envelope("wallet.create", #"{"name":"A","currency":"ABCDEFGHIJKLMNOPQRSTU"}"#), code: .validationFailed, field: "body.currency"),
            .init(name: "empty wallet name", frame: envelope("wallet.create", #"{"name":"  ","currency":"EUR"}"#), code: .validationFailed, field: "body.name"),
            // Defect 1: frames that are not RFC 8259 JSON (the encodings are in `notStrictJSON`).
            .init(name: "trailing comma in the envelope", frame: #"{"v":1,"id":"bad-1","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k-tc","body":{"name":"Comma"},}"#, code: .malformed, field: nil),
            .init(name: "trailing comma in the body", frame: envelope("tag.create", #"{"name":"Comma",}"#), code: .malformed, field: nil),
            .init(name: "trailing comma in an array", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","tags":["a",]}"#), code: .malformed, field: nil),
            .init(name: "leading zero", frame: envelope("wallet.get", #"{"id":01}"#), code: .malformed, field: nil),
            .init(name: "lone escaped surrogate", frame: envelope("tag.create", #"{"name":"\ud800"}"#), code: .malformed, field: nil),
            .init(name: "65 levels of nesting", frame: envelope("tag.create", String(repeating: #"{"a":"#, count: 63) + "{}" + String(repeating: "}", count: 63)), code: .malformed, field: nil),
            // Defect 2: a missing or non-object body, an empty id.
            .init(name: "body missing", frame: #"{"v":1,"id":"bad-1","type":"wallet.list","ts":"2026-11-21T12:00:00.000Z"}"#, code: .malformed, field: "body"),
            .init(name: "body not an object", frame: envelope("tag.create", #"["Tag"]"#), code: .malformed, field: "body"),
            .init(name: "body null", frame: envelope("wallet.list", "null"), code: .malformed, field: "body"),
            .init(name: "empty id", frame: #"{"v":1,"id":"","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k-empty-id","body":{"name":"NoId"}}"#, code: .malformed, field: "id"),
            // Defect 4: duplicate member names, in the envelope and in bodies.
            .init(name: "type twice", frame: #"{"v":1,"id":"bad-1","type":"status","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k-dup","body":{"name":"Dup"}}"#, code: .malformed, field: "type"),
            .init(name: "body member twice", frame: envelope("tag.create", #"{"name":"A","name":"B"}"#), code: .malformed, field: "body.name"),
            .init(name: "split member twice", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"30.00","date":"2026-11-21","splits":[{"amount":"20.00","categoryId":1},{"amount":"10.00","categoryId":1,"memo":"a","memo":"b"}]}"#), code: .malformed, field: "body.splits[1].memo"),
            .init(name: "member twice, once escaped", frame: envelope("tag.create", #"{"name":"A","n\u0061me":"B"}"#), code: .malformed, field: "body.name"),
            // Defect 5: U+0000 anywhere in a string.
            .init(name: "NUL in notes", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","notes":"nul\u0000after"}"#), code: .validationFailed, field: "body.notes"),
            .init(name: "NUL in attachmentPath", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21","attachmentPath":"/tmp/a\u0000b"}"#), code: .validationFailed, field: "body.attachmentPath"),
            .init(name: "NUL in a split memo", frame: envelope("tx.create", #"{"kind":"expense","walletId":1,"amount":"30.00","date":"2026-11-21","splits":[{"amount":"20.00","categoryId":1},{"amount":"10.00","categoryId":1,"memo":"\u0000"}]}"#), code: .validationFailed, field: "body.splits[1].memo"),
            .init(name: "NUL in institution", frame: envelope("wallet.create", #"{"name":"B","currency":"EUR","institution":"Bank\u0000X"}"#), code: .validationFailed, field: "body.institution"),
            .init(name: "NUL in icon", frame: envelope("wallet.create", #"{"name":"B","currency":"EUR","icon":"\u0000"}"#), code: .validationFailed, field: "body.icon"),
            .init(name: "NUL in the key", frame: envelope("tag.create", #"{"name":"T"}"#, key: #"K\u0000A"#), code: .validationFailed, field: "key"),
            .init(name: "NUL in a member name", frame: envelope("tag.create", #"{"name":"T","x\u0000":1}"#), code: .validationFailed, field: #"body.x\u0000"#),
            // Numbers are integers: a fraction or an exponent cannot pass for one.
            .init(name: "version 1.0", frame: #"{"v":1.0,"id":"bad-1","type":"tag.create","ts":"2026-11-21T12:00:00.000Z","key":"k-v10","body":{"name":"V"}}"#, code: .validationFailed, field: "v"),
            .init(name: "wallet id 1e0", frame: envelope("tx.create", #"{"kind":"expense","walletId":1e0,"amount":"3.00","date":"2026-11-21"}"#), code: .validationFailed, field: "body.walletId"),
            .init(name: "wallet id 1.0", frame: envelope("tx.create", #"{"kind":"expense","walletId":1.0,"amount":"3.00","date":"2026-11-21"}"#), code: .validationFailed, field: "body.walletId"),
            .init(name: "wallet id beyond 64 bits", frame: envelope("wallet.get", #"{"id":99999999999999999999}"#), code: .validationFailed, field: "body.id"),
        ]

        /// A store set up with a EUR wallet (1), a JPY wallet (2) and a category (1). One per
        /// case: a shared (static) one would never be released, leaving its process running.
        static func fixture() throws -> ServiceHarness {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            _ = try client.call(WalletCreateRequest(name: "Euro", currency: "EUR"))
            _ = try client.call(WalletCreateRequest(name: "Yen", currency: "JPY"))
            _ = try client.call(CategoryCreateRequest(name: "Food", kind: .expense))
            return harness
        }

        @Test(arguments: cases)
        func isRefusedWithAClearErrorAndChangesNothing(_ bad: BadRequest) throws {
            let harness = try Self.fixture()
            let client = harness.client()
            let before = try #require(harness.status(.store)).lastSeq
            let reply = try client.exchange(Data(bad.frame.utf8), id: nil)
            let envelope = try JSONDecoder().decode(Envelope<ErrorBody>.self, from: reply)
            #expect(envelope.type == "error")
            #expect(envelope.body.code == bad.code, "\(envelope.body.message)")
            #expect(envelope.body.field == bad.field, "\(envelope.body.message)")
            #expect(!envelope.body.message.isEmpty)
            #expect(try #require(harness.status(.store)).lastSeq == before)
            #expect(try client.call(WalletListRequest()).wallets.map(\.balance) == ["0.00", "0"])
        }

        /// Defect 1 on every service: each reads its requests through `RequestDecoding.parse`.
        static let notStrictJSON: [(name: String, frame: Data)] = {
            let status = #"{"v":1,"id":"enc-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#
            return [
                ("trailing comma", Data(#"{"v":1,"id":"enc-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{},}"#.utf8)),
                ("UTF-16LE", status.data(using: .utf16LittleEndian)!),
                ("UTF-16BE", status.data(using: .utf16BigEndian)!),
                ("UTF-16 with a byte order mark", status.data(using: .utf16)!),
                ("UTF-32LE", status.data(using: .utf32LittleEndian)!),
                ("UTF-32BE", status.data(using: .utf32BigEndian)!),
                ("leading U+FEFF", Data([0xEF, 0xBB, 0xBF]) + Data(status.utf8)),
                ("Latin-1", Data(#"{"v":1,"id":"enc-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{"x":""#.utf8) + Data([0xE9]) + Data(#""}}"#.utf8)),
            ]
        }()

        @Test(arguments: ServiceHarness.ServiceName.allCases)
        func framesThatAreNotStrictJSONAreMalformedOnEveryService(_ service: ServiceHarness.ServiceName) throws {
            let harness = try ServiceHarness()
            try harness.start(service)
            let client = harness.client(service)
            for (name, frame) in Self.notStrictJSON {
                let reply = try client.exchange(frame, id: nil)
                let envelope = try JSONDecoder().decode(Envelope<ErrorBody>.self, from: reply)
                #expect(envelope.type == "error", "\(name)")
                #expect(envelope.body.code == .malformed, "\(name): \(envelope.body.message)")
                #expect(envelope.re == "", "\(name)")
            }
            // Defects 2, 4, 5 and 6 on every service, with `re` naming the request.
            let others: [(name: String, frame: String, code: ErrorCode, field: String?)] = [
                ("body missing", #"{"v":1,"id":"e-1","type":"status","ts":"2026-11-21T12:00:00.000Z"}"#, .malformed, "body"),
                ("empty id", #"{"v":1,"id":"","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, .malformed, "id"),
                ("type twice", #"{"v":1,"id":"e-1","type":"rates.refresh","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, .malformed, "type"),
                ("NUL in the type", #"{"v":1,"id":"e-1","type":"status\u0000x","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, .validationFailed, "type"),
                ("version 1.0", #"{"v":1.0,"id":"e-1","type":"status","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, .validationFailed, "v"),
                ("a long type with a newline", #"{"v":1,"id":"e-1","type":"a\n\#(String(repeating: "t", count: 100_000))","ts":"2026-11-21T12:00:00.000Z","body":{}}"#, .unknownType, "type"),
            ]
            for bad in others {
                let reply = try client.exchange(Data(bad.frame.utf8), id: nil)
                let envelope = try JSONDecoder().decode(Envelope<ErrorBody>.self, from: reply)
                #expect(envelope.body.code == bad.code, "\(service) \(bad.name): \(envelope.body.message)")
                #expect(envelope.body.field == bad.field, "\(service) \(bad.name)")
                #expect(envelope.re == (bad.name == "empty id" ? "" : "e-1"), "\(service) \(bad.name)")
                #expect(envelope.body.message.count < 300, "\(service) \(bad.name): \(envelope.body.message.prefix(300))")
                #expect(!envelope.body.message.contains("\n") && !envelope.body.message.contains("\u{0}"), "\(service) \(bad.name)")
            }
            #expect(harness.status(service) != nil)
        }

        /// Defect 3: a string that starts with U+FEFF comes back exactly as sent, in `re` and in data.
        @Test func aByteOrderMarkInAStringRoundTrips() throws {
            let harness = try Self.fixture()
            let client = harness.client()
            let id = "\u{FEFF}bom-id"
            let frame = "{\"v\":1,\"id\":\"\(id)\",\"type\":\"tx.create\",\"ts\":\"2026-11-21T12:00:00.000Z\",\"key\":\"k-bom\",\"body\":{\"kind\":\"expense\",\"walletId\":1,\"amount\":\"3.00\",\"date\":\"2026-11-21\",\"notes\":\"\u{FEFF}note\"}}"
            let reply = try client.exchange(Data(frame.utf8), id: nil)
            let envelope = try JSONDecoder().decode(Envelope<TransactionRecord>.self, from: reply)
            #expect(envelope.type == "tx.create.ok")
            #expect(envelope.re.map { Array($0.unicodeScalars) } == Array(id.unicodeScalars))
            #expect(envelope.body.notes.map { Array($0.unicodeScalars) } == Array("\u{FEFF}note".unicodeScalars))
            let stored = try client.call(TransactionGetRequest(id: envelope.body.id))
            #expect(stored.notes.map { Array($0.unicodeScalars) } == Array("\u{FEFF}note".unicodeScalars))
            // An error reply echoes it exactly too.
            let bad = "{\"v\":1,\"id\":\"\(id)\",\"type\":\"tag.explode\",\"ts\":\"2026-11-21T12:00:00.000Z\",\"body\":{}}"
            let error = try JSONDecoder().decode(EnvelopeHeader.self, from: try client.exchange(Data(bad.utf8), id: nil))
            #expect(error.re.map { Array($0.unicodeScalars) } == Array(id.unicodeScalars))
        }

        /// Defect 5: keys that differ after a NUL no longer collide, since neither is accepted;
        /// a NUL-free key still works.
        @Test func idempotencyKeysWithANulAreRefusedNotConfused() throws {
            let harness = try Self.fixture()
            let client = harness.client()
            for (key, name) in [(#"K\u0000A"#, "First"), (#"K\u0000B"#, "Second")] {
                let frame = Self.envelope("tag.create", #"{"name":"\#(name)"}"#, key: key)
                let reply = try JSONDecoder().decode(Envelope<ErrorBody>.self, from: try client.exchange(Data(frame.utf8), id: nil))
                #expect(reply.body.code == .validationFailed && reply.body.field == "key", "\(reply.body.message)")
            }
            #expect(try client.call(TagListRequest()).tags.isEmpty)
        }

        @Test func anOversizedFrameDropsThatConnectionAndTheStoreKeepsServing() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let socket = try ZMQSocket(context: harness.context, type: .dealer)
            try socket.connect(harness.home.storeCommandEndpoint)
            // Over the store's 16 MiB limit (StoreService.maximumFrameBytes).
            let huge = Data(repeating: UInt8(ascii: "x"), count: 17 << 20)
            try socket.send([Data(), huge])
            #expect(try socket.waitForInput(timeoutMilliseconds: 500) == false)
            socket.close()
            #expect(harness.status(.store) != nil)
            #expect(try harness.client().call(SettingsGetRequest()).onboardingCompleted == false)
        }

        @Test func extraRoutingFramesAreMalformedNotFatal() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let socket = try ZMQSocket(context: harness.context, type: .dealer)
            try socket.connect(harness.home.storeCommandEndpoint)
            try socket.send([Data(), Data("{}".utf8), Data("{}".utf8)])
            #expect(try socket.waitForInput(timeoutMilliseconds: 2_000))
            let reply = try #require(try socket.receive(dontWait: true)?.last)
            #expect(try JSONDecoder().decode(Envelope<ErrorBody>.self, from: reply).body.code == .malformed)
            socket.close()
            #expect(harness.status(.store) != nil)
        }
    }
}
