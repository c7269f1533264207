import Foundation

/// What went wrong talking to the hub, worded for a terminal. Every case names the hub by
/// `HubAddress.serverName` (host and port, or socket path), never by its URL, so no password can
/// reach a message.
public enum HubError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection could be made: refused, no route, name not found, timed out.
    case unreachable(server: String, reason: String)
    /// The server refused the user or password, or has no pg_hba.conf line for this client.
    case authenticationRefused(server: String, user: String, reason: String)
    case databaseMissing(server: String, database: String)
    /// The URL asks for TLS and the server offers none, or the handshake or certificate check failed.
    case tlsFailed(server: String, reason: String)
    /// The server asked for the password in a form that gives it away (cleartext, or MD5, which
    /// is as good as the password to whoever sees it): refused before the password left (D432).
    case insecureAuthentication(server: String, method: String)
    /// The server's SCRAM challenge asked for fewer iterations than PostgreSQL's default: the
    /// proof was not sent (D491).
    case weakSCRAM(server: String, iterations: UInt32, minimum: UInt32)
    /// The server declared an authentication message longer than Ledgerly accepts (D530).
    case oversizedAuthentication(server: String, declaredLength: Int, limit: Int)
    /// The password file (`passfile=`, `$PGPASSFILE`, `~/.pgpass`) could not be used.
    case passwordFile(String)
    /// An open connection ended: the server restarted or shut down, or the network dropped.
    /// The next call connects anew.
    case connectionLost(server: String, reason: String)
    case ledgerAlreadyExists(UUID)
    case unknownLedger(UUID)
    /// `sync rekey` of a ledger that a rekey retired already (D480).
    case alreadyRetired(UUID)
    /// A row the hub returned that this version cannot read (KDF parameters out of bounds, say).
    case unreadableRow(String)
    /// Any other error the server reported, with its SQLSTATE.
    case server(server: String, sqlState: String, message: String)
    /// Anything else: a bug or an unexpected library error.
    case other(server: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let server, let reason):
            "the sync hub at \(server) is unreachable: \(reason)"
        case .authenticationRefused(let server, let user, let reason):
            "the sync hub at \(server) refused user \"\(user)\": \(reason)"
        case .databaseMissing(let server, let database):
            "the sync hub at \(server) has no database \"\(database)\""
        case .tlsFailed(let server, let reason):
            "no TLS connection to the sync hub at \(server): \(reason)"
        case .insecureAuthentication(let server, let method):
            "the sync hub at \(server) asked for the password as \(method); Ledgerly sends it only by SCRAM-SHA-256, so it was not sent. Set password_encryption = 'scram-sha-256', reset the user's password, and use scram-sha-256 in pg_hba.conf"
        case .weakSCRAM(let server, let iterations, let minimum):
            "the sync hub at \(server) asked for SCRAM-SHA-256 with \(iterations) iteration\(iterations == 1 ? "" : "s"); Ledgerly needs at least \(minimum) (PostgreSQL's default), since fewer make the password cheap to guess from the exchange, so the password proof was not sent. On the server set scram_iterations = \(minimum) or more and reset the user's password"
        case .oversizedAuthentication(let server, let length, let limit):
            "the sync hub at \(server) announced an authentication message of \(length) bytes; a PostgreSQL server's are about 100 and Ledgerly accepts at most \(limit), so the connection was closed before reading it and no password was sent (is something other than PostgreSQL answering at this address?)"
        case .passwordFile(let reason):
            reason
        case .connectionLost(let server, let reason):
            "the connection to the sync hub at \(server) was lost (\(reason)); it will be opened again on the next try"
        case .ledgerAlreadyExists(let id):
            "the hub already has a ledger \(id)"
        case .unknownLedger(let id):
            "the hub has no ledger \(id)"
        case .alreadyRetired(let id):
            "the hub's ledger \(id.uuidString.lowercased()) was retired by a rekey already"
        case .unreadableRow(let reason):
            "the hub returned a row this version of Ledgerly cannot read: \(reason)"
        case .server(let server, let sqlState, let message):
            "the sync hub at \(server) reported an error: \(message) (SQLSTATE \(sqlState))"
        case .other(let server, let reason):
            "talking to the sync hub at \(server) failed: \(reason)"
        }
    }

    /// Worth trying again later without changing anything (the hub down, restarting, or the
    /// network gone); `false` for errors a person must fix (password, URL, certificate).
    public var isTransient: Bool {
        switch self {
        case .unreachable, .connectionLost: true
        default: false
        }
    }
}
