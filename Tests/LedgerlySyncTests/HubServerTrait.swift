import LedgerlyTesting
import Testing

/// One real PostgreSQL cluster for a whole suite: made before its first test, destroyed after its
/// last, and handed to the tests through a task-local value rather than a global.
struct HubServerTrait: SuiteTrait, TestScoping {
    let tls: Bool

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try TemporaryPostgres(tls: tls)
        defer { server.destroy() }
        try await HubServer.$current.withValue(server) {
            try await function()
        }
    }
}

enum HubServer {
    @TaskLocal static var current: TemporaryPostgres?

    /// The suite's server; a test outside a `.realPostgres` suite fails here.
    static var server: TemporaryPostgres {
        get throws { try #require(current, "this test needs the .realPostgres trait on its suite") }
    }
}

extension Trait where Self == HubServerTrait {
    /// A real PostgreSQL cluster for the suite (`TemporaryPostgres`), with TLS on.
    static var realPostgres: Self { HubServerTrait(tls: true) }
}

extension Trait where Self == HubServerTrait {
    /// A real PostgreSQL cluster for the suite with TLS off, to see a client that asks for TLS refused.
    static var realPostgresWithoutTLS: Self { HubServerTrait(tls: false) }
}
