import Foundation
import LedgerlySync
import Logging
import Testing

/// The sync review's leftovers (issue 44; D530): the authentication guard keeps a SCRAM
/// challenge's body to read its iteration count, and kept whatever length the server declared.
/// An authentication message longer than 1,024 bytes is now refused on its header, at once and
/// with the reason, instead of the client waiting (and keeping) what the server says will come.
@Suite("Hub authentication message limit")
struct HubAuthenticationMessageLimitTests {
    let quiet = Logger(label: "ledgerly.sync.test", factory: { _ in SwiftLogNoOpLogHandler() })

    func attempt(declaring length: Int) async throws -> (error: HubError?, seconds: Double, port: Int, security: HubSecurity) {
        let fake = try await FakePostgresServer(request: .scramDeclaring(length: length), tls: nil)
        defer { Task { await fake.close() } }
        let hub = HubClient(address: try HubAddress(parsing: "postgres://u:Pa55-never-sent@127.0.0.1:\(fake.port)/db?sslmode=disable"),
                            connectTimeout: .seconds(5), logger: quiet)
        let start = ContinuousClock.now
        var failure: HubError?
        do {
            try await hub.ensureSchema()
        } catch {
            failure = error
        }
        let elapsed = ContinuousClock.now - start
        let security = await hub.security()
        await hub.close()
        #expect(fake.receivedAfterStartup.isEmpty, "the client answered: \(fake.receivedAfterStartup.count) bytes")
        return (failure, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, fake.port, security)
    }

    /// 1 GiB and 1,025 bytes declared: refused at once (before, the client waited for the bytes
    /// until the connect timeout, keeping each one that came).
    @Test(arguments: [1 << 30, 1025])
    func aLongerMessageIsRefusedOnItsHeader(length: Int) async throws {
        let (error, seconds, port, security) = try await attempt(declaring: length)
        #expect(error == .oversizedAuthentication(server: "127.0.0.1:\(port)", declaredLength: length, limit: 1024), "\(String(describing: error))")
        #expect(error?.description.contains("at most 1024") == true && error?.description.contains("no password was sent") == true)
        #expect(seconds < 4, "refused after \(seconds) s: the client waited for the message")
        #expect(security.authentication == .refused("a password after an authentication message of \(length) bytes (at most 1024 accepted)"))
    }
}
