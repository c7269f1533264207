import Foundation
import LedgerlySync
import LedgerlyTesting
import Logging
import Testing

@Suite("Hub client on a PostgreSQL without TLS", .realPostgresWithoutTLS)
struct HubWithoutTLSTests {
    @Test func askingForTLSFromAServerWithoutItIsRefused() async throws {
        let server = try HubServer.server
        let quiet = Logger(label: "ledgerly.sync.test", factory: { _ in SwiftLogNoOpLogHandler() })
        let hub = HubClient(address: try HubAddress(parsing: server.url(sslmode: "require")), logger: quiet)
        do {
            try await hub.ensureSchema()
            Issue.record("a TLS connection was made to a server without TLS")
        } catch {
            guard case .tlsFailed = error else { Issue.record("expected tlsFailed, got \(error)"); return }
            #expect(error.description.contains("does not offer TLS"), "\(error)")
            #expect(!error.description.contains(server.password))
        }
        // The same server in plain text works.
        let plain = HubClient(address: try HubAddress(parsing: server.url()), logger: quiet)
        try await plain.ensureSchema()
        await plain.close()
    }
}
