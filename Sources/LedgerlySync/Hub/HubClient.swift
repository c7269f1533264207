import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Talks to one hub over one PostgreSQL connection.
///
/// An actor, because the connection is state that changes (opened on first use, dropped after an
/// error) and because calls must take turns: a push is a transaction (`BEGIN`, lock, insert,
/// `COMMIT`), and a second call's statements on the same connection in between would land inside
/// it. Calls wait for their turn in arrival order; `HubClient`s on different connections (two
/// devices, two pushers) run side by side.
///
/// The connection is opened lazily and kept between calls. After any failure it is closed and
/// forgotten, so the next call connects anew: a hub that restarted costs one failed call
/// (`HubError.connectionLost`) and then works again, without the caller managing connections.
/// A sync round may equally make a client, use it, and `close()` it; both are fine.
///
/// A call waiting for its turn does not react to cancellation while it waits (what cancellation
/// does to a running PostgreSQL call is postgres-nio's and is not tested here).
public actor HubClient {
    public nonisolated let address: HubAddress
    private let logger: Logger
    private let connectTimeout: Duration
    private var connection: PostgresConnection?
    private var connectionCount = 0
    /// How the last connection authenticated, or what it refused (D531).
    private var authentication: HubAuthenticationRecord.Outcome = .pending
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(address: HubAddress, connectTimeout: Duration = .seconds(10), logger: Logger = Logger(label: "ledgerly.sync.hub")) {
        self.address = address
        self.connectTimeout = connectTimeout
        self.logger = logger
    }

    /// Creates the tables if they are missing (the retirements and devices tables, D480, come to an
    /// older hub this way too). Idempotent, and safe when several devices call
    /// it at once: the statements run in one transaction under an advisory lock.
    public func ensureSchema() async throws(HubError) {
        try await run { connection, logger in
            try await Self.transaction(connection, logger) {
                try await connection.query("SELECT pg_advisory_xact_lock(\(HubSchema.lockNamespace), \(HubSchema.schemaLockKey))", logger: logger)
                for statement in HubSchema.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
        }
    }

    /// Every ledger on the hub, oldest first.
    public func ledgers() async throws(HubError) -> [HubLedger] {
        try await readLedgers(id: nil)
    }

    /// The ledger with this id, or `nil`.
    public func ledger(id: UUID) async throws(HubError) -> HubLedger? {
        try await readLedgers(id: id).first
    }

    private func readLedgers(id: UUID?) async throws(HubError) -> [HubLedger] {
        typealias Row = (UUID, String, Data, Int32, Int32, Int32, Data, Date)
        let rows = try await run { connection, logger in
            let sequence: PostgresRowSequence
            if let id {
                sequence = try await connection.query(
                    "SELECT ledger_id, kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check, created_at FROM ledgerly_ledgers WHERE ledger_id = \(id)",
                    logger: logger
                )
            } else {
                sequence = try await connection.query(
                    "SELECT ledger_id, kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check, created_at FROM ledgerly_ledgers ORDER BY created_at, ledger_id",
                    logger: logger
                )
            }
            var rows: [Row] = []
            for try await row in sequence.decode(Row.self) { rows.append(row) }
            return rows
        }
        var ledgers: [HubLedger] = []
        for (id, kdf, salt, n, r, p, keyCheck, createdAt) in rows {
            do {
                let parameters = try KDFParameters(algorithm: kdf, salt: Array(salt), n: Int(n), r: Int(r), p: Int(p))
                ledgers.append(HubLedger(id: id, kdf: parameters, keyCheck: keyCheck, createdAt: createdAt))
            } catch {
                throw .unreadableRow("ledger \(id): \(error)")
            }
        }
        return ledgers
    }

    /// Adds a ledger; `HubError.ledgerAlreadyExists` when its id is taken.
    public func createLedger(_ ledger: HubLedger) async throws(HubError) {
        let inserted = try await run { connection, logger in
            let salt = Data(ledger.kdf.salt)
            let rows = try await connection.query(
                """
                INSERT INTO ledgerly_ledgers (ledger_id, kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check)
                VALUES (\(ledger.id), \(ledger.kdf.algorithm), \(salt), \(Int32(ledger.kdf.n)), \(Int32(ledger.kdf.r)), \(Int32(ledger.kdf.p)), \(ledger.keyCheck))
                ON CONFLICT (ledger_id) DO NOTHING
                RETURNING ledger_id
                """,
                logger: logger
            )
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
        if inserted == 0 { throw .ledgerAlreadyExists(ledger.id) }
    }

    /// Stores `messages` in one transaction and returns how many were new. A message already there
    /// (same ledger, device and clock) is skipped, so pushing again after a crash is harmless.
    ///
    /// The transaction first takes `pg_advisory_xact_lock` on the ledger, so pushes to one ledger
    /// commit one after another and `seq` (drawn inside the lock) increases in commit order. A
    /// puller reading `seq > cursor` therefore never sees a higher seq before a lower one commits,
    /// and never steps over a row that shows up later. Messages of one call get increasing seqs in
    /// the order given.
    @discardableResult
    public func push(ledgerId: UUID, _ messages: [HubOutgoing]) async throws(HubError) -> Int {
        guard !messages.isEmpty else { return 0 }
        let devices = messages.map(\.deviceId)
        let clocks = messages.map(\.hlc)
        let sealed = messages.map { ByteBuffer(bytes: $0.sealed) }
        return try await run(ledger: ledgerId) { connection, logger in
            try await Self.transaction(connection, logger) {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(HubSchema.lockNamespace), hashtext(\(ledgerId.uuidString.lowercased())))",
                    logger: logger
                )
                let rows = try await connection.query(
                    """
                    INSERT INTO ledgerly_messages (ledger_id, device_id, hlc, sealed)
                    SELECT \(ledgerId), m.device_id, m.hlc, m.sealed
                    FROM unnest(\(devices)::uuid[], \(clocks)::text[], \(sealed)::bytea[]) WITH ORDINALITY AS m(device_id, hlc, sealed, position)
                    ORDER BY m.position
                    ON CONFLICT (ledger_id, device_id, hlc) DO NOTHING
                    RETURNING seq
                    """,
                    logger: logger
                )
                var count = 0
                for try await _ in rows { count += 1 }
                return count
            }
        }
    }

    /// The device id an unreadable row stands in with (`HubMessage.unreadable`).
    static let nilDevice = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Up to `limit` messages of the ledger with `seq > after`, in seq order. Start with `after: 0`.
    public func pull(ledgerId: UUID, after seq: Int64, limit: Int = 500) async throws(HubError) -> [HubMessage] {
        let limit = Int64(max(1, limit))
        return try await run { connection, logger in
            let rows = try await connection.query(
                """
                SELECT seq, device_id, hlc, sealed FROM ledgerly_messages
                WHERE ledger_id = \(ledgerId) AND seq > \(seq)
                ORDER BY seq LIMIT \(limit)
                """,
                logger: logger
            )
            // Column by column: a NULL or wrongly typed column makes that row unreadable (it is
            // quarantined), not the whole batch a failure every round (D465). Only a row without
            // a position cannot be placed: that is the hub's fault, reported.
            var messages: [HubMessage] = []
            for try await row in rows {
                let cells = row.makeRandomAccess()
                guard let seq = try? cells[0].decode(Int64.self) else { throw HubError.unreadableRow("a message without a readable position (seq)") }
                var unreadable: [String] = []
                func read<T: PostgresDecodable>(_ index: Int, _ name: String, _ type: T.Type) -> T? {
                    guard let value = try? cells[index].decode(T.self) else { unreadable.append(name); return nil }
                    return value
                }
                let device = read(1, "device_id", UUID.self), hlc = read(2, "hlc", String.self), sealed = read(3, "sealed", Data.self)
                messages.append(HubMessage(seq: seq, deviceId: device ?? Self.nilDevice, hlc: hlc ?? "", sealed: sealed ?? Data(), unreadable: unreadable))
            }
            return messages
        }
    }

    /// How many messages of the ledger after `seq` came from other devices than `excludingDevice`:
    /// what is waiting to be pulled.
    public func count(ledgerId: UUID, after seq: Int64, excludingDevice deviceId: UUID?) async throws(HubError) -> Int {
        try await run { connection, logger in
            let rows: PostgresRowSequence
            if let deviceId {
                rows = try await connection.query(
                    "SELECT count(*) FROM ledgerly_messages WHERE ledger_id = \(ledgerId) AND seq > \(seq) AND device_id <> \(deviceId)",
                    logger: logger
                )
            } else {
                rows = try await connection.query(
                    "SELECT count(*) FROM ledgerly_messages WHERE ledger_id = \(ledgerId) AND seq > \(seq)",
                    logger: logger
                )
            }
            var total: Int64 = 0
            for try await (count,) in rows.decode((Int64,).self) { total = count }
            return Int(total)
        }
    }

    /// Closes the connection if one is open. The client stays usable: a later call connects again.
    public func close() async {
        await takeTurn()
        defer { endTurn() }
        await dropConnection()
    }

    // MARK: - Turns, connection, errors

    /// Runs `body` on the connection (opened if needed) in this call's turn, mapping every failure
    /// to a `HubError` and dropping the connection after one.
    /// `ledger`: the ledger a foreign-key failure is about (`HubError.unknownLedger`).
    func run<T>(ledger: UUID? = nil, _ body: (PostgresConnection, Logger) async throws -> T) async throws(HubError) -> T {
        await takeTurn()
        defer { endTurn() }
        do {
            let connection = try await openConnection()
            return try await body(connection, logger)
        } catch {
            let hubError = (error as? HubError) ?? HubErrorMapping.map(error, address: address, ledger: ledger)
            if case .ledgerAlreadyExists = hubError {} else if case .unknownLedger = hubError {} else {
                await dropConnection()
            }
            logger.debug("sync hub call failed", metadata: ["hub": "\(address.serverName)", "error": "\(hubError)"])
            throw hubError
        }
    }

    private func takeTurn() async {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
    }

    /// Hands the turn to the next caller in line (who then runs with `busy` still set).
    private func endTurn() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Opens the socket itself (with `HubAuthenticationGuard` in its pipeline) and hands it to
    /// postgres-nio, which then does the TLS request and handshake and the authentication on it.
    /// postgres-nio ignores `connectTimeout` on a channel it did not open, so the whole start-up is
    /// bounded here: the channel is closed when it has not finished in time.
    private func openConnection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if connection != nil { await dropConnection() }
        connectionCount += 1
        let record = HubAuthenticationRecord()
        let tls = try tlsMode()
        let expectsTLSAnswer: Bool = if case .tcp = address.endpoint { address.tls != .disable } else { false }
        let password = try resolvedPassword()
        let (seconds, attoseconds) = connectTimeout.components
        let timeout = TimeAmount.milliseconds(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(HubAuthenticationGuard(record: record, awaitingSSLAnswer: expectsTLSAnswer))
                }
            }
        let channel: any Channel
        var configuration: PostgresConnection.Configuration
        switch address.endpoint {
        case .tcp(let host, let port):
            channel = try await Self.reach(address) { try await bootstrap.connect(host: host, port: port).get() }
            configuration = .init(establishedChannel: channel, tls: tls, username: address.user, password: password, database: address.database)
            // As postgres-nio does for a host it connects to: the name for SNI and the certificate
            // check, unless it is an IP address (then the certificate must name that address).
            if !Self.isIPAddress(host) { configuration.options.tlsServerName = host }
        case .unixSocket(let path):
            channel = try await Self.reach(address) { try await bootstrap.connect(unixDomainSocketPath: path).get() }
            configuration = .init(establishedChannel: channel, tls: .disable, username: address.user, password: password, database: address.database)
        }
        let expired = Mutex(false)
        let timedOut = channel.eventLoop.scheduleTask(in: timeout) {
            expired.withLock { $0 = true }
            channel.close(promise: nil)
        }
        defer { timedOut.cancel() }
        do {
            let opened = try await PostgresConnection.connect(on: channel.eventLoop, configuration: configuration, id: connectionCount, logger: logger).get()
            authentication = record.outcome
            connection = opened
            // Once per connection (kept between calls): what protected it, for whoever reads the log.
            logger.info("sync hub connected", metadata: ["hub": "\(address.serverName)", "security": "\(security())"])
            return opened
        } catch {
            channel.close(promise: nil)
            // A request refused is what this connection's authentication was (`sync status` says
            // so, D531); a start-up that never got that far leaves the last connection's.
            if record.outcome != .pending { authentication = record.outcome }
            if case .refused(let method) = record.outcome {
                throw HubError.insecureAuthentication(server: address.serverName, method: method)
            }
            if case .weakSCRAM(let iterations) = record.outcome {
                throw HubError.weakSCRAM(server: address.serverName, iterations: iterations, minimum: HubAuthenticationGuard.minimumSCRAMIterations)
            }
            if case .oversized(let length) = record.outcome {
                throw HubError.oversizedAuthentication(server: address.serverName, declaredLength: length, limit: HubAuthenticationGuard.maximumAuthenticationMessageLength)
            }
            if expired.withLock({ $0 }) {
                throw HubError.unreachable(server: address.serverName, reason: "no answer within \(seconds) s")
            }
            throw error
        }
    }

    /// The socket connection, its failure named as postgres-nio's own connect would have it.
    private static func reach(_ address: HubAddress, _ connect: () async throws -> any Channel) async throws -> any Channel {
        do {
            return try await connect()
        } catch {
            throw HubError.unreachable(server: address.serverName, reason: HubErrorMapping.socketReason(error) ?? "\(error)")
        }
    }

    /// The URL's password, else the password file's (libpq's order), else none.
    private func resolvedPassword() throws -> String? {
        if let password = address.password { return password }
        do {
            return try PasswordFile.password(for: address)
        } catch {
            throw HubError.passwordFile(error.description)
        }
    }

    private static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    private func dropConnection() async {
        guard let connection else { return }
        self.connection = nil
        try? await connection.close()
    }

    /// What protects the connection and how the hub knew this client, for `sync status` and
    /// the logs: "TLS, certificate verified" and "SCRAM-SHA-256", say.
    public func security() -> HubSecurity {
        let transport: HubSecurity.Transport = switch (address.endpoint, address.tls) {
        case (.unixSocket, _): .unixSocket
        case (.tcp, .disable): .plainTCP
        case (.tcp, _): .verifiedTLS(rootCertificate: address.rootCertificatePath)
        }
        let method: HubSecurity.Authentication = switch authentication {
        case .pending: .notYetConnected
        case .authenticated(scram: true): .scramSHA256
        case .authenticated(scram: false): .noneAsked
        case .refused(let method): .refused(method)
        case .weakSCRAM(let iterations): .refused("SCRAM-SHA-256 with \(iterations) iteration\(iterations == 1 ? "" : "s") (at least \(HubAuthenticationGuard.minimumSCRAMIterations) needed)")
        case .oversized(let length): .refused("a password after an authentication message of \(length) bytes (at most \(HubAuthenticationGuard.maximumAuthenticationMessageLength) accepted)")
        }
        return HubSecurity(transport: transport, authentication: method)
    }

    /// TLS for TCP unless `sslmode=disable`: always with the certificate chain and host name
    /// checked (`require` included, D430), against `sslrootcert=` or the system's roots.
    private func tlsMode() throws -> PostgresConnection.Configuration.TLS {
        guard case .tcp = address.endpoint, address.tls != .disable else { return .disable }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if let path = address.rootCertificatePath { tls.trustRoots = .file(path) }
        do {
            return .require(try NIOSSLContext(configuration: tls))
        } catch {
            throw HubError.tlsFailed(server: address.serverName, reason: "the TLS settings could not be loaded (sslrootcert=\(address.rootCertificatePath ?? "none")): \(error)")
        }
    }

    /// `BEGIN`, `body`, `COMMIT`; `ROLLBACK` (best effort) and the original error when `body` throws.
    static func transaction<T>(_ connection: PostgresConnection, _ logger: Logger, _ body: () async throws -> T) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        do {
            let value = try await body()
            try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}
