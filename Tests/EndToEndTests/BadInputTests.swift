import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
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
