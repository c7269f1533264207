import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what postgres-nio and SwiftNIO throw into a `HubError` a person can act on. PSQLError's
/// own description is deliberately terse ("PSQLError(code: connectionError)"), so the reason is
/// dug out of its server fields (SQLSTATE, message) or the underlying socket or TLS error.
enum HubErrorMapping {
    static func map(_ error: any Error, address: HubAddress, ledger: UUID? = nil) -> HubError {
        let server = address.serverName
        if let error = error as? HubError { return error }
        if let error = error as? PSQLError {
            return map(error, address: address, ledger: ledger)
        }
        if isTLS(error) { return .tlsFailed(server: server, reason: "\(error)") }
        return .other(server: server, reason: socketReason(error) ?? "\(error)")
    }

    private static func map(_ error: PSQLError, address: HubAddress, ledger: UUID?) -> HubError {
        let server = address.serverName
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? "?"
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            case "28P01", "28000":
                return .authenticationRefused(server: server, user: address.user, reason: message)
            case "3D000":
                return .databaseMissing(server: server, database: address.database)
            case "57P01", "57P02", "57P03":
                // admin_shutdown, crash_shutdown, cannot_connect_now: stopping or starting up.
                return .connectionLost(server: server, reason: message)
            case "23503":
                if let ledger { return .unknownLedger(ledger) }
                return .server(server: server, sqlState: state, message: message)
            default:
                return .server(server: server, sqlState: state, message: message)
            }
        case .sslUnsupported:
            return .tlsFailed(server: server, reason: "the server does not offer TLS, and the URL asks for it (sslmode=\(address.tls.rawValue))")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return .tlsFailed(server: server, reason: error.underlying.map { "\($0)" } ?? "\(error.code)")
        case .authMechanismRequiresPassword:
            return .authenticationRefused(server: server, user: address.user, reason: "the server asks for a password and the URL gives none")
        case .unsupportedAuthMechanism, .saslError:
            return .authenticationRefused(server: server, user: address.user, reason: "authentication failed (\(error.code)\(error.underlying.map { ": \($0)" } ?? ""))")
        case .connectionError:
            if let underlying = error.underlying {
                if isTLS(underlying) { return .tlsFailed(server: server, reason: "\(underlying)") }
                if let reason = socketReason(underlying) { return .unreachable(server: server, reason: reason) }
                return .unreachable(server: server, reason: "\(underlying)")
            }
            return .unreachable(server: server, reason: "the connection could not be made")
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            if let underlying = error.underlying, isTLS(underlying) {
                return .tlsFailed(server: server, reason: "\(underlying)")
            }
            return .connectionLost(server: server, reason: error.underlying.flatMap { socketReason($0) } ?? "the server closed it")
        default:
            return .other(server: server, reason: "\(error.code)\(error.underlying.map { ": \($0)" } ?? "")")
        }
    }

    private static func isTLS(_ error: any Error) -> Bool {
        error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError
    }

    /// A sentence for a socket-level failure ("connection refused", "no answer within 10 s"), or nil.
    static func socketReason(_ error: any Error) -> String? {
        if let error = error as? NIOConnectionError {
            if let dns = error.dnsAAAAError ?? error.dnsAError, error.connectionErrors.isEmpty {
                return "the host name does not resolve (\(dns))"
            }
            if let first = error.connectionErrors.first {
                return socketReason(first.error) ?? "\(first.error)"
            }
            return "no address to connect to"
        }
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode)).lowercased()
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout(let amount):
                return "no answer within \(amount.nanoseconds / 1_000_000_000) s"
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed:
                return "the connection is closed"
            default:
                return "\(error)"
            }
        }
        return nil
    }
}
