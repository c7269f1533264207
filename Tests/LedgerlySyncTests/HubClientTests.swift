import Foundation
import LedgerlySync
import LedgerlyTesting
import Logging
import Testing

/// The hub client against a real PostgreSQL 15 server (`TemporaryPostgres`): no mocks. Serialized
/// because one test stops and restarts the server under the others' feet.
@Suite("Hub client on a real PostgreSQL", .serialized, .realPostgres)
struct HubClientTests {
    let quiet = Logger(label: "ledgerly.sync.test", factory: { _ in SwiftLogNoOpLogHandler() })

    func client(_ url: String? = nil) throws -> HubClient {
        HubClient(address: try HubAddress(parsing: url ?? HubServer.server.url()), connectTimeout: .seconds(5), logger: quiet)
    }

    /// A new ledger on the hub with a key from `passphrase` at the cheap test cost.
    func newLedger(_ hub: HubClient, passphrase: String = "test passphrase") async throws -> (HubLedger, LedgerKey) {
        let parameters = try KDFParameters.newLedger(cost: .cheapForTestsOnly)
        let key = try LedgerKey.derive(passphrase: passphrase, parameters: parameters)
        let id = UUID()
        let ledger = HubLedger(id: id, kdf: parameters, keyCheck: key.makeKeyCheck(ledgerId: id))
        try await hub.ensureSchema()
        try await hub.createLedger(ledger)
        return (ledger, key)
    }

    func messages(_ device: UUID, _ clocks: ClosedRange<Int>, seal: MessageSeal) throws -> [HubOutgoing] {
        try clocks.map { clock in
            let hlc = String(format: "%016d-0000", clock)
            return HubOutgoing(deviceId: device, hlc: hlc, sealed: try seal.seal(Data("change \(clock)".utf8), deviceId: device, hlc: hlc))
        }
    }

    @Test func schemaCreationIsIdempotentAndSafeWhenRaced() async throws {
        let first = try client(), second = try client(), third = try client()
        try await first.ensureSchema()
        try await first.ensureSchema()
        async let a: Void = second.ensureSchema()
        async let b: Void = third.ensureSchema()
        _ = try await (a, b)
        let tables = try HubServer.server.psql(
            "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_name LIKE 'ledgerly_%'",
            database: HubServer.server.database
        )
        #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "ledgerly_devices,ledgerly_ledgers,ledgerly_messages,ledgerly_retirements")
        let columns = try HubServer.server.psql(
            "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'ledgerly_messages'",
            database: HubServer.server.database
        )
        #expect(columns.trimmingCharacters(in: .whitespacesAndNewlines) == "ledger_id,seq,device_id,hlc,sealed")
        for hub in [first, second, third] { await hub.close() }
    }

    @Test func createdLedgerReadsBack() async throws {
        let hub = try client()
        let (ledger, _) = try await newLedger(hub)
        let read = try #require(try await hub.ledger(id: ledger.id))
        #expect(read.kdf == ledger.kdf)
        #expect(read.keyCheck == ledger.keyCheck)
        #expect(read.createdAt != nil)
        #expect(try await hub.ledgers().contains { $0.id == ledger.id })
        await #expect(throws: HubError.ledgerAlreadyExists(ledger.id)) { try await hub.createLedger(ledger) }
        // The client is still usable after that refusal.
        #expect(try await hub.ledger(id: ledger.id) != nil)
        await hub.close()
    }

    @Test func pushIsIdempotentAndPullIsOrderedAfterTheCursor() async throws {
        let hub = try client()
        let (ledger, key) = try await newLedger(hub)
        let device = UUID()
        let seal = MessageSeal(key: key, ledgerId: ledger.id)
        let outgoing = try messages(device, 1...3, seal: seal)
        #expect(try await hub.push(ledgerId: ledger.id, outgoing) == 3)
        #expect(try await hub.push(ledgerId: ledger.id, outgoing) == 0)
        // A batch mixing old and new stores only the new.
        let fourth = try messages(device, 4...4, seal: seal)
        #expect(try await hub.push(ledgerId: ledger.id, outgoing + fourth) == 1)
        let all = try await hub.pull(ledgerId: ledger.id, after: 0)
        #expect(all.map(\.hlc) == (outgoing + fourth).map(\.hlc))
        #expect(all.map(\.seq) == all.map(\.seq).sorted())
        #expect(Set(all.map(\.seq)).count == 4)
        let afterFirst = try await hub.pull(ledgerId: ledger.id, after: all[0].seq)
        #expect(afterFirst.map(\.hlc) == Array(all.dropFirst()).map(\.hlc))
        let limited = try await hub.pull(ledgerId: ledger.id, after: 0, limit: 2)
        #expect(limited.map(\.seq) == Array(all.prefix(2)).map(\.seq))
        #expect(try await hub.pull(ledgerId: ledger.id, after: all[3].seq).isEmpty)
        for message in all {
            #expect(try seal.open(message.sealed, deviceId: message.deviceId, hlc: message.hlc) == Data("change \(Int(message.hlc.prefix(16))!)".utf8))
        }
        await hub.close()
    }

    @Test func countWaitingExcludesOwnDevice() async throws {
        let hub = try client()
        let (ledger, key) = try await newLedger(hub)
        let seal = MessageSeal(key: key, ledgerId: ledger.id)
        let mine = UUID(), theirs = UUID()
        try await hub.push(ledgerId: ledger.id, messages(mine, 1...2, seal: seal))
        try await hub.push(ledgerId: ledger.id, messages(theirs, 3...5, seal: seal))
        #expect(try await hub.count(ledgerId: ledger.id, after: 0, excludingDevice: mine) == 3)
        #expect(try await hub.count(ledgerId: ledger.id, after: 0, excludingDevice: theirs) == 2)
        #expect(try await hub.count(ledgerId: ledger.id, after: 0, excludingDevice: nil) == 5)
        let pulled = try await hub.pull(ledgerId: ledger.id, after: 0)
        #expect(try await hub.count(ledgerId: ledger.id, after: pulled[2].seq, excludingDevice: mine) == 2)
        await hub.close()
    }

    @Test func pushToAnUnknownLedgerIsRefused() async throws {
        let hub = try client()
        try await hub.ensureSchema()
        let missing = UUID()
        await #expect(throws: HubError.unknownLedger(missing)) {
            try await hub.push(ledgerId: missing, [HubOutgoing(deviceId: UUID(), hlc: "1", sealed: Data([1]))])
        }
        await hub.close()
    }

    /// Two devices pushing to one ledger at once while a third pulls: the advisory lock makes seq
    /// order commit order, so the puller, advancing its cursor as it goes, misses nothing.
    @Test func concurrentPushersGiveGapFreeCommitOrder() async throws {
        let setup = try client()
        let (ledger, key) = try await newLedger(setup)
        await setup.close()
        let seal = MessageSeal(key: key, ledgerId: ledger.id)
        let batches = 30, perBatch = 4
        let devices = [UUID(), UUID()]
        var expected = Set<String>()
        for device in devices {
            for clock in 1...(batches * perBatch) { expected.insert("\(device)/\(String(format: "%016d-0000", clock))") }
        }
        let pushers = try devices.map { _ in try client() }
        let puller = try client()
        let total = expected.count
        let pulled = try await withThrowingTaskGroup(of: [HubMessage].self) { group in
            for (device, hub) in zip(devices, pushers) {
                group.addTask {
                    for batch in 0..<batches {
                        let first = batch * perBatch + 1
                        try await hub.push(ledgerId: ledger.id, messages(device, first...(first + perBatch - 1), seal: seal))
                    }
                    return []
                }
            }
            group.addTask {
                var seen: [HubMessage] = []
                var cursor: Int64 = 0
                let deadline = ContinuousClock.now + .seconds(60)
                while seen.count < total, ContinuousClock.now < deadline {
                    let page = try await puller.pull(ledgerId: ledger.id, after: cursor, limit: 7)
                    seen += page
                    cursor = page.last?.seq ?? cursor
                    if page.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                }
                return seen
            }
            var collected: [HubMessage] = []
            for try await result in group { collected += result }
            return collected
        }
        #expect(pulled.count == total)
        #expect(Set(pulled.map { "\($0.deviceId)/\($0.hlc)" }) == expected)
        let seqs = pulled.map(\.seq)
        #expect(seqs == seqs.sorted())
        // No aborted or duplicate insert happened, so the seqs are contiguous too.
        #expect(seqs.last! - seqs.first! == Int64(total - 1))
        for hub in pushers + [puller] { await hub.close() }
    }

    @Test func stoppedHubIsUnreachableThenWorksAfterRestart() async throws {
        let server = try HubServer.server
        let hub = try client()
        let (ledger, _) = try await newLedger(hub)
        try server.stop()
        var errors: [HubError] = []
        for _ in 0..<2 {
            do {
                _ = try await hub.count(ledgerId: ledger.id, after: 0, excludingDevice: nil)
            } catch {
                errors.append(error)
            }
        }
        try server.start()
        #expect(errors.count == 2)
        let allTransient = errors.allSatisfy { $0.isTransient }
        #expect(allTransient, "\(errors)")
        // Once the dead connection is dropped, connecting again is refused: "unreachable".
        let last = try #require(errors.last)
        guard case .unreachable = last else {
            Issue.record("expected unreachable, got \(last)")
            return
        }
        #expect(last.description.contains("unreachable"))
        #expect(last.description.contains("127.0.0.1:\(server.port)"))
        #expect(!last.description.contains(server.password))
        // The same client works again, with no new client or explicit reconnect.
        #expect(try await hub.count(ledgerId: ledger.id, after: 0, excludingDevice: nil) == 0)
        // A restart under an open connection costs at most one failed call.
        try server.restart()
        var failures = 0
        for _ in 0..<3 {
            do {
                _ = try await hub.ledger(id: ledger.id)
            } catch {
                #expect(error.isTransient, "\(error)")
                failures += 1
            }
        }
        #expect(failures <= 1)
        await hub.close()
    }

    /// The hub holds ciphertext: a marker that went into a sealed message is nowhere in the hub's
    /// tables, neither as text nor as bytes. The same search finds it when it is pushed in clear,
    /// so the search itself works.
    @Test func hubTablesHoldNoPlaintext() async throws {
        let server = try HubServer.server
        let hub = try client()
        let (ledger, key) = try await newLedger(hub, passphrase: "marker passphrase")
        let seal = MessageSeal(key: key, ledgerId: ledger.id)
        let marker = "PLAINTEXT-MARKER-\(UUID().uuidString)"
        let device = UUID()
        let sealed = try seal.seal(Data(#"{"memo":"\#(marker)","amount":"42.00"}"#.utf8), deviceId: device, hlc: "0000000000000001-0000")
        try await hub.push(ledgerId: ledger.id, [HubOutgoing(deviceId: device, hlc: "0000000000000001-0000", sealed: sealed)])
        func hits(_ marker: String) throws -> String {
            try server.psql(
                """
                SELECT (SELECT count(*) FROM ledgerly_messages m WHERE m::text LIKE '%\(marker)%' OR position(convert_to('\(marker)', 'UTF8') IN m.sealed) > 0)
                     + (SELECT count(*) FROM ledgerly_ledgers l WHERE l::text LIKE '%\(marker)%' OR position(convert_to('\(marker)', 'UTF8') IN l.key_check) > 0)
                """,
                database: server.database
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try hits(marker) == "0")
        #expect(try hits("marker passphrase") == "0")
        let control = "CONTROL-MARKER-\(UUID().uuidString)"
        try await hub.push(ledgerId: ledger.id, [HubOutgoing(deviceId: device, hlc: "control", sealed: Data("x\(control)x".utf8))])
        #expect(try hits(control) == "1")
        await hub.close()
    }

    @Test func wrongPassphraseAndMovedMessagesAreRefused() async throws {
        let server = try HubServer.server
        let hub = try client()
        let (ledger, key) = try await newLedger(hub, passphrase: "the right one")
        // A second device joins: reads the ledger, derives from the hub's parameters, checks the key.
        let joined = try #require(try await hub.ledger(id: ledger.id))
        let wrong = try LedgerKey.derive(passphrase: "the wrong one", parameters: joined.kdf)
        #expect(throws: SyncCryptoError.wrongPassphrase) { try wrong.verify(keyCheck: joined.keyCheck, ledgerId: joined.id) }
        let right = try LedgerKey.derive(passphrase: "the right one", parameters: joined.kdf)
        try right.verify(keyCheck: joined.keyCheck, ledgerId: joined.id)
        #expect(right.bytes == key.bytes)

        // The hub moves a message to another device: it no longer opens.
        let seal = MessageSeal(key: key, ledgerId: ledger.id)
        let device = UUID(), impostor = UUID()
        try await hub.push(ledgerId: ledger.id, messages(device, 1...1, seal: seal))
        try server.psql("UPDATE ledgerly_messages SET device_id = '\(impostor)' WHERE ledger_id = '\(ledger.id)'", database: server.database)
        let moved = try #require(try await hub.pull(ledgerId: ledger.id, after: 0).first)
        #expect(moved.deviceId == impostor)
        #expect(throws: SyncCryptoError.messageDoesNotOpen(deviceId: impostor, hlc: moved.hlc)) {
            try seal.open(moved.sealed, deviceId: moved.deviceId, hlc: moved.hlc)
        }
        await hub.close()
    }

    @Test func refusedPasswordAndMissingDatabaseAreNamed() async throws {
        let server = try HubServer.server
        let badPassword = "Not-The-Password-\(UUID().uuidString.prefix(8))"
        let refused = try client("postgres://\(server.user):\(badPassword)@127.0.0.1:\(server.port)/\(server.database)?sslrootcert=\(server.certificatePath ?? "")")
        do {
            try await refused.ensureSchema()
            Issue.record("a wrong password was accepted")
        } catch {
            guard case .authenticationRefused = error else { Issue.record("expected authenticationRefused, got \(error)"); return }
            #expect(error.description.contains("refused user \"\(server.user)\""))
            #expect(!error.description.contains(badPassword))
            #expect(!error.isTransient)
        }
        let missing = try client("postgres://\(server.user):\(server.password)@127.0.0.1:\(server.port)/no_such_db?sslrootcert=\(server.certificatePath ?? "")")
        await #expect(throws: HubError.databaseMissing(server: "127.0.0.1:\(server.port)", database: "no_such_db")) {
            try await missing.ensureSchema()
        }
    }

    @Test func nothingListensThereIsUnreachable() async throws {
        let server = try HubServer.server
        // The server's own unix socket folder with a port nobody listens on.
        let hub = try client("postgres://u:p@/db?host=\(server.socketFolder)&port=1")
        await #expect(throws: HubError.self) { try await hub.ensureSchema() }
        do {
            try await hub.ensureSchema()
        } catch {
            #expect(error.description.hasPrefix("the sync hub at \(server.socketFolder)/.s.PGSQL.1 is unreachable: "), "\(error)")
        }
    }

    @Test func unixSocketURLWorks() async throws {
        let hub = try client(HubServer.server.socketURL)
        try await hub.ensureSchema()
        #expect(try await hub.ledgers().count >= 0)
        await hub.close()
    }

    @Test func tlsRequireAndVerifyFull() async throws {
        let server = try HubServer.server
        let certificate = try #require(server.certificatePath)
        let required = try client(server.url(sslmode: "require"))
        try await required.ensureSchema()
        await required.close()
        // Proof the session is encrypted: the server's own view of this connection.
        let encrypted = try client(server.url(sslmode: "require"))
        _ = try await encrypted.ledgers()
        let sslRows = try server.psql("SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE s.ssl AND a.usename = '\(server.user)'")
        #expect(Int(sslRows.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 1)
        await encrypted.close()

        for host in ["localhost", "127.0.0.1"] {
            let verified = try client(server.url(host: host, sslmode: "verify-full"))
            #expect(verified.address.rootCertificatePath == certificate)
            try await verified.ensureSchema()
            await verified.close()
        }
        // The self-signed certificate is not among the system's roots: verify-full refuses it.
        // So does require, which verifies too (D430), and so does no sslmode at all.
        for url in [server.url(host: "localhost", sslmode: "verify-full", trustCertificate: false),
                    server.url(host: "localhost", sslmode: "require", trustCertificate: false),
                    "postgres://\(server.user)@127.0.0.1:\(server.port)/\(server.database)?passfile=\(server.passwordFilePath)"] {
            let untrusted = try client(url)
            do {
                try await untrusted.ensureSchema()
                Issue.record("\(url) accepted an untrusted certificate")
            } catch {
                guard case .tlsFailed = error else { Issue.record("expected tlsFailed, got \(error)"); continue }
            }
        }
    }

    /// D465: a hub row with a NULL (or wrongly typed) column is returned as unreadable, named by
    /// column, so `ledgerly-sync` quarantines it; the rows around it read, and the batch is not
    /// a failure every round.
    @Test func aRowWithANullColumnIsUnreadableNotAFailedBatch() async throws {
        let server = try HubServer.server
        let hub = try client()
        let (ledger, key) = try await newLedger(hub)
        let seal = MessageSeal(key: key, ledgerId: ledger.id)
        let device = UUID()
        try await hub.push(ledgerId: ledger.id, messages(device, 1...3, seal: seal))
        let pushed = try await hub.pull(ledgerId: ledger.id, after: 0)
        try server.psql("ALTER TABLE ledgerly_messages ALTER COLUMN hlc DROP NOT NULL; UPDATE ledgerly_messages SET hlc = NULL WHERE ledger_id = '\(ledger.id)' AND seq = \(pushed[1].seq)",
                        database: server.database)
        let pulled: [HubMessage]
        do {
            pulled = try await hub.pull(ledgerId: ledger.id, after: 0)
        } catch {
            Issue.record("the batch failed: \(error)")
            pulled = []
        }
        // The hub's table as every other test expects it.
        try server.psql("DELETE FROM ledgerly_messages WHERE hlc IS NULL; ALTER TABLE ledgerly_messages ALTER COLUMN hlc SET NOT NULL", database: server.database)
        #expect(pulled.map(\.seq) == pushed.map(\.seq))
        #expect(pulled.map(\.unreadable) == [[], ["hlc"], []])
        #expect(pulled.first == pushed.first && pulled.last == pushed.last)
        await hub.close()
    }
}
