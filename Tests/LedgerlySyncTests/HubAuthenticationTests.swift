import Foundation
import LedgerlySync
import LedgerlyTesting
import Logging
import NIOSSL
import Testing

/// Issue 44, finding 1: the hub password goes out only by SCRAM-SHA-256 over verified TLS (or a
/// unix socket, or plain TCP when the URL says `sslmode=disable`). A fake server that asks for the
/// password in clear must never receive it, whatever the URL says; the real cluster works with
/// `verify-full` and its certificate.
@Suite("Hub authentication and transport", .serialized, .realPostgres)
struct HubAuthenticationTests {
    let quiet = Logger(label: "ledgerly.sync.test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let password = "Pa55-never-sent-9f3c"

    func client(_ url: String) throws -> HubClient {
        HubClient(address: try HubAddress(parsing: url), connectTimeout: .seconds(5), logger: quiet)
    }

    /// The cluster's own certificate and key, so the fake server passes a verify-full check.
    func serverTLS() throws -> NIOSSLContext {
        let server = try HubServer.server
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(try #require(server.certificatePath)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: try #require(server.keyPath), format: .pem)))
        return try NIOSSLContext(configuration: configuration)
    }

    func expectPasswordNeverSent(_ fake: FakePostgresServer) {
        let received = fake.receivedAfterStartup
        #expect(!String(decoding: received, as: UTF8.self).contains(Self.password), "the fake server received the password")
        #expect(received.first != UInt8(ascii: "p"), "the client sent a password message: \(received)")
    }

    @Test func noSSLModeMeansVerifiedTLSSoAServerWithoutTLSGetsNothing() async throws {
        let fake = try await FakePostgresServer(request: .cleartext, tls: nil)
        defer { Task { await fake.close() } }
        let hub = try client("postgres://u:\(Self.password)@127.0.0.1:\(fake.port)/db")
        do {
            try await hub.ensureSchema()
            Issue.record("connected to a server without TLS")
        } catch {
            if case .tlsFailed = error {} else { Issue.record("expected tlsFailed, got \(error)") }
        }
        #expect(fake.connections == 1)
        #expect(!fake.sawStartup, "not even the start-up message goes out without TLS")
        expectPasswordNeverSent(fake)
    }

    @Test func requireVerifiesTheCertificateSoASelfSignedImpostorGetsNothing() async throws {
        let fake = try await FakePostgresServer(request: .cleartext, tls: try serverTLS())
        defer { Task { await fake.close() } }
        let hub = try client("postgres://u:\(Self.password)@127.0.0.1:\(fake.port)/db?sslmode=require")
        do {
            try await hub.ensureSchema()
            Issue.record("sslmode=require accepted a certificate nobody vouches for")
        } catch {
            if case .tlsFailed = error {} else { Issue.record("expected tlsFailed, got \(error)") }
        }
        #expect(!fake.sawStartup)
        expectPasswordNeverSent(fake)
    }

    @Test(arguments: [FakePostgresServer.Request.cleartext, .md5])
    func cleartextAndMD5AreRefusedEvenOverVerifiedTLS(request: FakePostgresServer.Request) async throws {
        let certificate = try #require(try HubServer.server.certificatePath)
        let fake = try await FakePostgresServer(request: request, tls: try serverTLS())
        defer { Task { await fake.close() } }
        let hub = try client("postgres://u:\(Self.password)@127.0.0.1:\(fake.port)/db?sslmode=verify-full&sslrootcert=\(certificate)")
        do {
            try await hub.ensureSchema()
            Issue.record("connected although the server asked for \(request)")
        } catch {
            if case .insecureAuthentication(_, let method) = error {
                #expect(method == (request == .cleartext ? "a cleartext password" : "an MD5 hash of the password"))
            } else {
                Issue.record("expected insecureAuthentication, got \(error)")
            }
            #expect(error.description.contains("SCRAM-SHA-256") && !error.description.contains(Self.password))
        }
        #expect(fake.sawStartup, "TLS was verified and the start-up went through")
        expectPasswordNeverSent(fake)
    }

    @Test func plainTCPOnlyWhenAskedAndStillNoCleartextPassword() async throws {
        let fake = try await FakePostgresServer(request: .cleartext, tls: nil)
        defer { Task { await fake.close() } }
        let hub = try client("postgres://u:\(Self.password)@127.0.0.1:\(fake.port)/db?sslmode=disable")
        do {
            try await hub.ensureSchema()
            Issue.record("sent a cleartext password")
        } catch {
            if case .insecureAuthentication = error {} else { Issue.record("expected insecureAuthentication, got \(error)") }
        }
        #expect(fake.sawStartup)
        expectPasswordNeverSent(fake)
        #expect(await hub.security().transport == .plainTCP)
    }

    @Test func theRealHubWorksWithVerifyFullAndSCRAM() async throws {
        let server = try HubServer.server
        let hub = try client(server.url(sslmode: "verify-full"))
        #expect(await hub.security().authentication == .notYetConnected)
        try await hub.ensureSchema()
        let security = await hub.security()
        #expect(security.transport == .verifiedTLS(rootCertificate: server.certificatePath))
        #expect(security.authentication == .scramSHA256)
        // The password came from the libpq password file the URL names, not from the URL.
        #expect(hub.address.password == nil && hub.address.passwordFilePath == server.passwordFilePath)
        await hub.close()
        // The unix socket: no TLS, and this cluster trusts local connections.
        let local = try client(server.socketURL)
        try await local.ensureSchema()
        #expect(await local.security() == HubSecurity(transport: .unixSocket, authentication: .noneAsked))
        await local.close()
    }

    @Test func passwordFileRules() async throws {
        let server = try HubServer.server
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass")
        let text = """
            # comment
            otherhost:*:*:*:wrong
            127.0.0.1:\(server.port):\(server.database):\(server.user):\(server.password)
            *:*:*:*:fallback
            """
        try Data(text.utf8).write(to: file)
        let address = try HubAddress(parsing: "postgres://\(server.user)@127.0.0.1:\(server.port)/\(server.database)?passfile=\(file.path)")
        // libpq's rule, enforced: a file group or others may read is not used.
        chmod(file.path, 0o640)
        #expect(throws: PasswordFileError.accessibleToOthers(path: file.path, mode: 0o640)) { try PasswordFile.password(for: address) }
        chmod(file.path, 0o600)
        #expect(try PasswordFile.password(for: address) == server.password)
        let other = try HubAddress(parsing: "postgres://someone@/db?host=/run/postgresql&passfile=\(file.path)")
        #expect(try PasswordFile.password(for: other) == "fallback")
        // $PGPASSFILE, then ~/.pgpass, when the URL names no file.
        let bare = try HubAddress(parsing: "postgres://\(server.user)@127.0.0.1:\(server.port)/\(server.database)")
        #expect(try PasswordFile.password(for: bare, environment: ["PGPASSFILE": file.path]) == server.password)
        #expect(try PasswordFile.password(for: bare, environment: ["HOME": folder.path]) == nil)
        // An escaped colon.
        try Data(#"*:*:*:*:a\:b\\c"#.utf8).write(to: file)
        #expect(try PasswordFile.password(for: address) == #"a:b\c"#)
    }
}
