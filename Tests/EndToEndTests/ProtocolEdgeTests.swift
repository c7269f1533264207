import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 45, item 19: edges a client written from PROTOCOL.md found, each refused by a real
    /// store with the field named (one store for all of them: each case changes nothing).
    @Suite struct ProtocolEdgeTests {
        struct Edge: CustomTestStringConvertible, Sendable {
            let name: String
            let frame: String
            let code: ErrorCode
            let field: String?
            var testDescription: String { name }
        }

        static func frame(_ type: String, _ body: String, id: String = "edge-1", key: String? = "k-\(UUID().uuidString)") -> String {
            let keyField = key.map { #","key":"\#($0)""# } ?? ""
            return #"{"v":1,"id":"\#(id)","type":"\#(type)","ts":"2026-11-21T12:00:00.000Z"\#(keyField),"body":\#(body)}"#
        }

        static let edges: [Edge] = [
            .init(name: "fullwidth letter in a colour", frame: frame("category.create", ##"{"name":"Wide","kind":"expense","color":"#ＡABBCC"}"##), code: .validationFailed, field: "body.color"),
            .init(name: "fullwidth digit in a colour", frame: frame("category.create", ##"{"name":"Wide","kind":"expense","color":"#AABBC９"}"##), code: .validationFailed, field: "body.color"),
            .init(name: "tx.import line 0", frame: frame("tx.import", #"{"importId":"edge","items":[{"line":0,"transaction":{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21"}}]}"#), code: .validationFailed, field: "body.items[0].line"),
            .init(name: "tx.import line -5", frame: frame("tx.import", #"{"importId":"edge","items":[{"line":1,"transaction":{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21"}},{"line":-5,"transaction":{"kind":"expense","walletId":1,"amount":"3.00","date":"2026-11-21"}}]}"#), code: .validationFailed, field: "body.items[1].line"),
            .init(name: "budget.status budgetIds [-1]", frame: frame("budget.status", #"{"budgetIds":[-1]}"#, key: nil), code: .validationFailed, field: "body.budgetIds[0]"),
            .init(name: "budget.status categoryIds [1, 0]", frame: frame("budget.status", #"{"categoryIds":[1,0]}"#, key: nil), code: .validationFailed, field: "body.categoryIds[1]"),
            .init(name: "tx.export afterId -1", frame: frame("tx.export", #"{"afterId":-1}"#, key: nil), code: .validationFailed, field: "body.afterId"),
            .init(name: "rates.export afterId -1", frame: frame("rates.export", #"{"afterId":-1}"#, key: nil), code: .validationFailed, field: "body.afterId"),
            .init(name: "convert.history afterId -1", frame: frame("convert.history", #"{"afterId":-1}"#, key: nil), code: .validationFailed, field: "body.afterId"),
            .init(name: "alert.list afterId -1", frame: frame("alert.list", #"{"afterId":-1}"#, key: nil), code: .validationFailed, field: "body.afterId"),
            .init(name: "invest.trade.list accountId 0", frame: frame("invest.trade.list", #"{"accountId":0}"#, key: nil), code: .validationFailed, field: "body.accountId"),
            .init(name: "invest.trade.list accountId -3", frame: frame("invest.trade.list", #"{"accountId":-3}"#, key: nil), code: .validationFailed, field: "body.accountId"),
            .init(name: "invest.trade.list assetId 0", frame: frame("invest.trade.list", #"{"assetId":0}"#, key: nil), code: .validationFailed, field: "body.assetId"),
            .init(name: "invest.gains accountId 0", frame: frame("invest.gains", #"{"accountId":0}"#, key: nil), code: .validationFailed, field: "body.accountId"),
            .init(name: "invest.gains assetId -1", frame: frame("invest.gains", #"{"assetId":-1}"#, key: nil), code: .validationFailed, field: "body.assetId"),
            .init(name: "invest.price.history assetId 0", frame: frame("invest.price.history", #"{"assetId":0}"#, key: nil), code: .validationFailed, field: "body.assetId"),
            .init(name: "tx.list walletId 0", frame: frame("tx.list", #"{"walletId":0}"#, key: nil), code: .validationFailed, field: "body.walletId"),
            .init(name: "tx.list categoryId -1", frame: frame("tx.list", #"{"categoryId":-1}"#, key: nil), code: .validationFailed, field: "body.categoryId"),
            .init(name: "rates.list profileId 0", frame: frame("rates.list", #"{"profileId":0}"#, key: nil), code: .validationFailed, field: "body.profileId"),
            .init(name: "rates.history profileId -1", frame: frame("rates.history", #"{"base":"EUR","quote":"USD","profileId":-1}"#, key: nil), code: .validationFailed, field: "body.profileId"),
            .init(name: "events.since after -1", frame: frame("events.since", #"{"after":-1}"#, key: nil), code: .validationFailed, field: "body.after"),
            .init(name: "wallet.get id 0", frame: frame("wallet.get", #"{"id":0}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "tx.get id -1", frame: frame("tx.get", #"{"id":-1}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "goal.get id 0", frame: frame("goal.get", #"{"id":0}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "goal.contributions id 0", frame: frame("goal.contributions", #"{"id":0}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "category.get id 0", frame: frame("category.get", #"{"id":0}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "asset.get id 0", frame: frame("asset.get", #"{"id":0}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "liability.get id -1", frame: frame("liability.get", #"{"id":-1}"#, key: nil), code: .validationFailed, field: "body.id"),
            .init(name: "invest.holdings accountId 0", frame: frame("invest.holdings", #"{"accountId":0}"#, key: nil), code: .validationFailed, field: "body.accountId"),
            .init(name: "a symbol with a newline", frame: frame("invest.asset.create", #"{"symbol":"A\n","assetType":"stock","quoteCurrency":"EUR"}"#), code: .validationFailed, field: "body.symbol"),
            .init(name: "a symbol ending in U+200B", frame: frame("invest.asset.create", "{\"symbol\":\"ACME\u{200B}\",\"assetType\":\"stock\",\"quoteCurrency\":\"EUR\"}"), code: .validationFailed, field: "body.symbol"),
            .init(name: "a symbol starting with U+FEFF", frame: frame("invest.asset.create", "{\"symbol\":\"\u{FEFF}ACME\",\"assetType\":\"stock\",\"quoteCurrency\":\"EUR\"}"), code: .validationFailed, field: "body.symbol"),
            .init(name: "a symbol with a leading space", frame: frame("invest.asset.create", #"{"symbol":" A","assetType":"stock","quoteCurrency":"EUR"}"#), code: .validationFailed, field: "body.symbol"),
            .init(name: "a buy in an archived account", frame: frame("invest.trade.buy", #"{"accountId":2,"assetId":1,"quantity":"1","price":"10","date":"2026-11-21"}"#), code: .validationFailed, field: "body.accountId"),
            .init(name: "a backup file name of 301 characters", frame: frame("ledger.backup", #"{"path":"/tmp/\#(String(repeating: "b", count: 301))"}"#, key: nil), code: .validationFailed, field: "body.path"),
            .init(name: "a backup file name of 239 bytes", frame: frame("ledger.backup", #"{"path":"/tmp/\#(String(repeating: "é", count: 119))b"}"#, key: nil), code: .validationFailed, field: "body.path"),
            .init(name: "an id with a line feed", frame: frame("status", "{}", id: #"edge\n1"#, key: nil), code: .malformed, field: "id"),
            .init(name: "an id with DEL", frame: frame("status", "{}", id: #"edge\u007f1"#, key: nil), code: .malformed, field: "id"),
            .init(name: "an id with U+0085", frame: frame("status", "{}", id: "edge\u{85}1", key: nil), code: .malformed, field: "id"),
            .init(name: "an id with NUL", frame: frame("status", "{}", id: #"edge\u00001"#, key: nil), code: .validationFailed, field: "id"),
        ]

        /// A set-up store with a EUR wallet (1), a category (1), an asset ACME (1), an active
        /// investment account (1) and an archived one (2).
        static func fixture() throws -> ServiceHarness {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            _ = try client.call(WalletCreateRequest(name: "Euro", currency: "EUR"))
            _ = try client.call(CategoryCreateRequest(name: "Food", kind: .expense))
            for setup in [
                Self.frame("invest.asset.create", #"{"symbol":"ACME","assetType":"stock","quoteCurrency":"EUR"}"#),
                Self.frame("invest.account.create", #"{"name":"Active"}"#),
                Self.frame("invest.account.create", #"{"name":"Old"}"#),
                Self.frame("invest.account.archive", #"{"id":2}"#),
            ] {
                let reply = try JSONDecoder().decode(EnvelopeHeader.self, from: try client.exchange(Data(setup.utf8), id: nil))
                #expect(reply.type != "error", "\(setup)")
            }
            return harness
        }

        @Test func eachEdgeIsRefusedNamingItsFieldAndChangesNothing() throws {
            let harness = try Self.fixture()
            let client = harness.client()
            let before = try #require(harness.status(.store)).lastSeq
            for edge in Self.edges {
                let answer = try client.exchange(Data(edge.frame.utf8), id: nil)
                guard let reply = try? JSONDecoder().decode(Envelope<ErrorBody>.self, from: answer), reply.type == "error" else {
                    Issue.record("\(edge.name): accepted: \(String(decoding: answer, as: UTF8.self).prefix(300))")
                    continue
                }
                #expect(reply.body.code == edge.code, "\(edge.name): \(reply.body.message)")
                #expect(reply.body.field == edge.field, "\(edge.name): \(reply.body.message)")
                #expect(!reply.body.message.contains("SQLite"), "\(edge.name): \(reply.body.message)")
                if edge.field == "id" { #expect(reply.re == "", "\(edge.name)") } else { #expect(reply.re == "edge-1", "\(edge.name)") }
            }
            #expect(try #require(harness.status(.store)).lastSeq == before)
            #expect(try client.call(CategoryListRequest()).categories.map(\.name) == ["Food"])
            #expect(try client.call(TransactionExportRequest()).transactions.isEmpty)
        }

        /// U+200B and U+FEFF from the input are escaped in every message that repeats it, as the
        /// `tx.create` amount message escapes them (PROTOCOL.md §9).
        @Test func invisibleCharactersInAQuantityOrACursorAreEscaped() throws {
            let harness = try Self.fixture()
            let client = harness.client()
            let frames = [
                ("quantity", Self.frame("invest.trade.buy", "{\"accountId\":1,\"assetId\":1,\"quantity\":\"1\u{200B}0\",\"price\":\"10\",\"date\":\"2026-11-21\"}"), "body.quantity"),
                ("after", Self.frame("invest.holdings", "{\"after\":\"\u{FEFF}1/ACME\u{200B}x\"}", key: nil), "body.after"),
                ("amount", Self.frame("tx.create", "{\"kind\":\"expense\",\"walletId\":1,\"amount\":\"1\u{200B}0\",\"date\":\"2026-11-21\"}"), "body.amount"),
            ]
            for (name, frame, field) in frames {
                let reply = try JSONDecoder().decode(Envelope<ErrorBody>.self, from: try client.exchange(Data(frame.utf8), id: nil))
                #expect(reply.body.code == .validationFailed && reply.body.field == field, "\(name): \(reply.body.message)")
                let scalars = reply.body.message.unicodeScalars
                #expect(!scalars.contains("\u{200B}") && !scalars.contains("\u{FEFF}"), "\(name): \(reply.body.message)")
                #expect(reply.body.message.contains(#"\u200B"#), "\(name): \(reply.body.message)")
            }
        }

        /// The symbol is kept exactly as typed once it is one; the id is echoed exactly when it
        /// holds no control character (U+FEFF is a format character, not a control one).
        @Test func whatIsAcceptedIsKeptAsTyped() throws {
            let harness = try Self.fixture()
            let client = harness.client()
            let created = try JSONDecoder().decode(Envelope<AssetRecord>.self, from: try client.exchange(Data(Self.frame("invest.asset.create", #"{"symbol":"Ab.c","assetType":"stock","quoteCurrency":"EUR"}"#).utf8), id: nil))
            #expect(created.body.symbol == "Ab.c")
            let category = try JSONDecoder().decode(Envelope<CategoryRecord>.self, from: try client.exchange(Data(Self.frame("category.create", ##"{"name":"Colour","kind":"expense","color":"#aabbcc"}"##).utf8), id: nil))
            #expect(category.body.color == "#AABBCC")
            let id = "tab\u{FEFF}id"
            let status = try JSONDecoder().decode(EnvelopeHeader.self, from: try client.exchange(Data(Self.frame("status", "{}", id: id, key: nil).utf8), id: nil))
            #expect(status.re.map { Array($0.unicodeScalars) } == Array(id.unicodeScalars))
        }
    }
}
