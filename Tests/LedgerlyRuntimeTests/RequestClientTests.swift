import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Testing
import ZeroMQ

/// The request client's answers that need no service: a missing socket file, and replies it
/// cannot take as the `.ok` it expects.
@Suite struct RequestClientTests {
    @Test func aMissingSocketFileIsNotRunningAtOnceWithoutWaitingOutTheTries() throws {
        let home = LedgerlyHome(root: URL(fileURLWithPath: "/tmp").appendingPathComponent("lr-" + String(UUID().uuidString.prefix(8)).lowercased()))
        try home.prepare()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let client = RequestClient(service: "ledgerly-store", endpoint: home.storeCommandEndpoint, context: try ZMQContext(), timeoutMilliseconds: 5_000, attempts: 3)
        defer { client.close() }
        let started = ContinuousClock.now
        do throws(ClientError) {
            _ = try client.call(StatusRequest())
            Issue.record("a call to a service with no socket file succeeded")
        } catch {
            guard case .notRunning(let service, let endpoint) = error else {
                Issue.record("expected notRunning, got \(error)")
                return
            }
            #expect(service == "ledgerly-store")
            #expect(endpoint == home.storeCommandEndpoint)
        }
        #expect(ContinuousClock.now - started < .seconds(1), "it waited instead of answering at once")
    }

    static func frame<Body: Codable & Sendable>(_ type: String, _ body: Body) throws -> Data {
        try MessageCoding.encode(Envelope(type: type, body: body, re: "r-1"))
    }

    @Test func anErrorReplyIsRejectedWithItsBody() throws {
        let refused = ErrorBody(code: .notFound, message: "no wallet 9", field: "body.id")
        let frame = try Self.frame("error", refused)
        do throws(ClientError) {
            _ = try RequestClient.decodeReply(frame, as: WalletRecord.self, expectedType: "wallet.get.ok")
            Issue.record("an error reply was taken as ok")
        } catch {
            guard case .rejected(let body) = error else {
                Issue.record("expected rejected, got \(error)")
                return
            }
            #expect(body == refused)
        }
    }

    @Test func aReplyOfAnotherTypeIsInvalid() throws {
        let frame = try Self.frame("status.ok", ["x": 1])
        do throws(ClientError) {
            _ = try RequestClient.decodeReply(frame, as: WalletRecord.self, expectedType: "wallet.get.ok")
            Issue.record("a reply of another type was accepted")
        } catch {
            guard case .invalidReply(let reason) = error else {
                Issue.record("expected invalidReply, got \(error)")
                return
            }
            #expect(reason == "expected wallet.get.ok, got status.ok")
        }
    }
}
