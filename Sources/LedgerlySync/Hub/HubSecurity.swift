/// How a device reaches its hub, in words for `sync status` and the logs: what protects the bytes
/// on the way and how the hub knew the client (D433).
public struct HubSecurity: Sendable, Equatable, CustomStringConvertible {
    public enum Transport: Sendable, Equatable {
        /// TLS with the certificate chain and host name checked (`sslrootcert=`, or the system's roots).
        case verifiedTLS(rootCertificate: String?)
        /// A unix socket: no network, so no TLS.
        case unixSocket
        /// TCP without TLS: only with `sslmode=disable` spelt out.
        case plainTCP
    }

    public enum Authentication: Sendable, Equatable {
        case notYetConnected
        case scramSHA256
        /// The server let the client in without asking for a password (`trust` or `peer`).
        case noneAsked
        /// The server asked for a cleartext or MD5 password, which was not sent.
        case refused(String)
    }

    public let transport: Transport
    public let authentication: Authentication

    public init(transport: Transport, authentication: Authentication) {
        self.transport = transport
        self.authentication = authentication
    }

    public var transportDescription: String {
        switch transport {
        case .verifiedTLS(let root): "TLS, certificate verified against " + (root.map { "sslrootcert=\($0)" } ?? "the system's roots")
        case .unixSocket: "unix socket (local, no TLS needed)"
        case .plainTCP: "plain TCP without TLS (sslmode=disable): anyone on the network path can read and change the traffic"
        }
    }

    public var authenticationDescription: String {
        switch authentication {
        case .notYetConnected: "not connected yet (SCRAM-SHA-256 only; cleartext and MD5 are refused)"
        case .scramSHA256: "SCRAM-SHA-256"
        case .noneAsked: "none asked by the server (trust or peer); a password would go by SCRAM-SHA-256 only"
        case .refused(let method): "refused: the server asked for \(method), which Ledgerly does not send"
        }
    }

    /// What `sync.report` carries for `sync status` (D531): how the last connection authenticated,
    /// or nil when none got that far (the store then keeps what the last one said).
    public var reportedAuthentication: String? {
        authentication == .notYetConnected ? nil : authenticationDescription
    }

    public var description: String { "transport: \(transportDescription); authentication: \(authenticationDescription)" }
}
