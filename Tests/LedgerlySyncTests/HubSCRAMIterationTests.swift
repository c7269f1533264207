import Foundation
import LedgerlySync
import Logging
import Testing

/// The sync review's leftovers (issue 44, item 5; D491): a SCRAM challenge with fewer than 4096
/// iterations (PostgreSQL's default) is refused before the client's proof goes out, so a fake
/// server (or an eavesdropper on `sslmode=disable`) gets nothing it can test guesses against
/// cheaply. postgres-nio alone answers a challenge of one iteration.
@Suite("Hub SCRAM iteration count")
struct HubSCRAMIterationTests {
    let quiet = Logger(label: "ledgerly.sync.test", factory: { _ in SwiftLogNoOpLogHandler() })

    func attempt(iterations: Int) async throws -> (error: HubError?, received: [UInt8], port: Int) {
        let fake = try await FakePostgresServer(request: .scram(iterations: iterations), tls: nil)
        defer { Task { await fake.close() } }
        let hub = HubClient(address: try HubAddress(parsing: "postgres://u:Pa55-never-sent@127.0.0.1:\(fake.port)/db?sslmode=disable"),
                            connectTimeout: .seconds(2), logger: quiet)
        var failure: HubError?
        do {
            try await hub.ensureSchema()
        } catch {
            failure = error
        }
        await hub.close()
        #expect(fake.sawStartup)
        return (failure, fake.receivedAfterStartup, fake.port)
    }

    @Test(arguments: [1, 4095])
    func fewIterationsAreRefusedBeforeTheProof(iterations: Int) async throws {
        let (error, received, port) = try await attempt(iterations: iterations)
        #expect(error == .weakSCRAM(server: "127.0.0.1:\(port)", iterations: UInt32(iterations), minimum: 4096), "\(String(describing: error))")
        #expect(error?.description.contains("at least 4096") == true && error?.description.contains("not sent") == true)
        #expect(received.isEmpty, "the client answered the challenge: \(received.count) bytes")
    }

    /// The control: at PostgreSQL's default the client answers with its proof (the fake server
    /// then goes quiet, so the connection times out).
    @Test func theDefaultCountIsAnswered() async throws {
        let (error, received, _) = try await attempt(iterations: 4096)
        #expect(error != nil)
        #expect(received.first == UInt8(ascii: "p"), "no SASLResponse after a 4096-iteration challenge")
    }
}
