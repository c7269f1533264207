import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Testing

/// The route table every service shares (D102): the checks made before a body is decoded, and
/// the duplicates it keeps for the service (and a test) to refuse.
@Suite struct RequestRoutesTests {
    /// A request's header as a service reads it off the wire.
    static func header(_ type: String, key: String? = nil) throws -> EnvelopeHeader {
        var fields: [String: Any] = ["v": 1, "id": "test-1", "type": type, "ts": "2026-11-24T00:00:00Z", "body": [String: Any]()]
        if let key { fields["key"] = key }
        return try MessageCoding.decoder().decode(EnvelopeHeader.self, from: JSONSerialization.data(withJSONObject: fields))
    }

    static func failure(_ routes: RequestRoutes<String>, _ header: EnvelopeHeader) -> ErrorBody? {
        do throws(ErrorBody) {
            _ = try routes.route(for: header)
            return nil
        } catch {
            return error
        }
    }

    static var small: RequestRoutes<String> {
        var routes = RequestRoutes<String>(service: "ledgerly-test")
        routes.add(StatusRequest.self, "status")
        routes.add(WalletCreateRequest.self, "create")
        return routes
    }

    @Test func aKnownTypeFindsItsHandler() throws {
        #expect(try Self.small.route(for: Self.header("status")).handler == "status")
        #expect(try Self.small.route(for: Self.header("wallet.create", key: "k-1")).handler == "create")
    }

    @Test func anUnknownTypeIsRefusedNamingWhatAShortTableAnswers() throws {
        let error = try #require(Self.failure(Self.small, Self.header("wallet.explode")))
        #expect(error.code == .unknownType)
        #expect(error.field == "type")
        #expect(error.message == "ledgerly-test does not handle 'wallet.explode'; it answers: status, wallet.create")
    }

    @Test func aLongTableSaysOnlyThatTheTypeIsUnknown() throws {
        var routes = Self.small
        routes.add(WalletListRequest.self, "list")
        routes.add(SettingsGetRequest.self, "settings")
        routes.add(WalletGetRequest.self, "get")
        let error = try #require(Self.failure(routes, Self.header("a\nb")))
        #expect(error.code == .unknownType)
        #expect(error.message == #"unknown message type 'a\nb'"#)  // quoted and escaped (D97)
    }

    @Test func aTypeAnsweredElsewhereSaysWhere() throws {
        var routes = Self.small
        routes.answeredElsewhere(RatesRefreshRequest.self, answeredBy: "ledgerly-rates")
        let error = try #require(Self.failure(routes, Self.header("rates.refresh")))
        #expect(error.code == .unknownType)
        #expect(error.message == "rates.refresh is answered by ledgerly-rates, not by ledgerly-test")
        #expect(routes.messageTypes == ["status", "wallet.create"])
        #expect(routes.knownRequestTypes.map { $0.messageType } == ["rates.refresh", "status", "wallet.create"])
    }

    @Test(arguments: [nil, ""])
    func aWriteWithoutAKeyIsRefused(key: String?) throws {
        let error = try #require(Self.failure(Self.small, Self.header("wallet.create", key: key)))
        #expect(error.code == .validationFailed)
        #expect(error.field == "key")
        #expect(error.message.contains("needs an idempotency key"))
    }

    @Test func aReadNeedsNoKey() throws {
        #expect(Self.failure(Self.small, try Self.header("status")) == nil)
    }

    @Test func aSecondRegistrationIsKeptAsADuplicateAndTheFirstStays() throws {
        var routes = Self.small
        routes.add(StatusRequest.self, "second status")
        routes.answeredElsewhere(WalletCreateRequest.self, answeredBy: "elsewhere")
        #expect(routes.duplicates == ["status", "wallet.create"])
        #expect(try routes.route(for: Self.header("status")).handler == "status")
        #expect(Self.small.duplicates.isEmpty)
    }
}
