import FoundationEssentials

/// Where ledgerly-web keeps what lets a browser in from the home network (D590), named once for
/// ledgerly-web, which makes and reads these files, and the CLI's `ledgerly web pair`, `devices`
/// and `revoke`, which read and change them without the service.
///
/// - `web/` in the data directory (0700): `certificate.pem` and `key.pem` (0600), the
///   self-signed certificate made on the first start beyond loopback and reused after; and
///   `devices/` (0700), one 0600 file per paired device, named by the SHA-256 of its token.
/// - `web-pairing/` in the state folder (0700): one file per pairing code `ledgerly web pair`
///   printed and nobody used yet, holding the Unix time it expires.
public struct WebAccessPaths: Sendable {
    public let folder: URL
    public let pairingCodes: URL

    public init(home: LedgerlyHome) {
        folder = home.root.appendingPathComponent("web")
        pairingCodes = home.stateDirectory.appendingPathComponent("web-pairing")
    }

    public var certificate: URL { folder.appendingPathComponent("certificate.pem") }
    public var privateKey: URL { folder.appendingPathComponent("key.pem") }
    public var devices: URL { folder.appendingPathComponent("devices") }
}
