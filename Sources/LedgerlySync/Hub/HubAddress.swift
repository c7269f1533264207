import Foundation

/// Where the hub is and how to reach it, parsed from the PostgreSQL URL a person gives
/// (`ledgerly sync enable --url postgres://…`). Only the forms postgres-nio can connect with are accepted,
/// and anything else is refused by name rather than half-understood:
///
/// - `postgres://user@host:port/db` (also `postgresql://`), port 5432 when left out, an IPv6
///   host in brackets (`[::1]`). User, password and database are percent-decoded. A password may be
///   in the URL (what `hub.json` keeps once `ledgerly sync enable` has read it from a file or a
///   prompt); the CLI refuses one typed in `--url`, where `ps` and the shell's history would show it.
/// - `postgres://user@/db?host=/run/postgresql`: a unix socket in that folder, on the socket file
///   PostgreSQL names after the port (`.s.PGSQL.5432`); a port may still be given in the authority
///   or as `?port=`. PostgreSQL serves no TLS on unix sockets, and none is needed: the kernel
///   carries the bytes, and the socket's folder decides who may connect.
/// - Over TCP, TLS with the server's certificate verified (chain and host name, against the
///   system's roots or `sslrootcert=/path/ca.pem`) is the default, loopback included (D430).
///   `sslmode=verify-full` says so explicitly; `sslmode=require` is accepted and verifies the same
///   way (libpq's `require` checks nothing, which lets anyone who answers at the address read the
///   password). Plain TCP only with `sslmode=disable`, spelt out, and `sync status` then warns.
///   `prefer`, `allow` and `verify-ca` are refused: a silent fallback to plain text or a half
///   check is not what a person asking for TLS means.
/// - `passfile=/path`: libpq's password file (`host:port:database:user:password` lines) to read
///   the password from when the URL has none; else `$PGPASSFILE`, else `~/.pgpass` (`PasswordFile`).
///
/// `description` (and `debugDescription`, and a `dump`) shows `***` in place of the password, so an
/// address can go into a log line or an error message as it is.
public struct HubAddress: Sendable, Hashable {
    /// How the connection is protected (`sslmode`). `require` and `verifyFull` both verify the
    /// certificate; `require` is kept so URLs written for libpq still parse.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

    /// Where the server listens.
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        /// The socket file itself: `<folder>/.s.PGSQL.<port>`.
        case unixSocket(path: String)
    }

    public let endpoint: Endpoint
    public let user: String
    /// Secret: kept out of every description.
    public let password: String?
    public let database: String
    public let tls: TLSMode
    /// A PEM file of the certificate authorities to trust (`sslrootcert=`); `nil` uses the
    /// system's roots.
    public let rootCertificatePath: String?
    /// libpq's `passfile=`: where to look the password up when the URL has none.
    public let passwordFilePath: String?
    /// The URL exactly as given, password included: what `hub.json` keeps. Never print it.
    public let url: String

    /// Parses `url`; throws `HubAddressError` naming the part that is wrong.
    public init(parsing url: String) throws(HubAddressError) {
        self.url = url
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed == url else { throw .surroundingWhitespace }
        guard let schemeEnd = url.range(of: "://") else { throw .notAURL }
        let scheme = String(url[..<schemeEnd.lowerBound]).lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else { throw .unsupportedScheme(scheme) }
        let rest = Substring(url[schemeEnd.upperBound...])
        // The last "@" ends the user information, so a password may hold an unencoded "@", "/",
        // "?" or "#" and still parse (and be redacted) whole.
        guard let at = rest.lastIndex(of: "@") else { throw .missingUser }
        let userInfo = rest[..<at]
        var afterUser = rest[rest.index(after: at)...]
        if afterUser.contains("#") { throw .fragmentNotAllowed }

        var query: [(String, String)] = []
        if let questionMark = afterUser.firstIndex(of: "?") {
            query = try Self.parseQuery(afterUser[afterUser.index(after: questionMark)...])
            afterUser = afterUser[..<questionMark]
        }
        guard let slash = afterUser.firstIndex(of: "/") else { throw .missingDatabase }
        let hostPort = afterUser[..<slash]
        let databaseText = afterUser[afterUser.index(after: slash)...]
        guard !databaseText.isEmpty else { throw .missingDatabase }
        guard !databaseText.contains("/") else { throw .invalidDatabase(String(databaseText)) }
        database = try Self.decode(databaseText, part: "database name")

        if let colon = userInfo.firstIndex(of: ":") {
            user = try Self.decode(userInfo[..<colon], part: "user name")
            password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: "password")
        } else {
            user = try Self.decode(userInfo, part: "user name")
            password = nil
        }
        guard !user.isEmpty else { throw .missingUser }

        var host: String?
        var port = 5432
        var portGiven = false
        if !hostPort.isEmpty {
            let hostText: Substring
            var portText: Substring?
            if hostPort.hasPrefix("[") {
                guard let close = hostPort.firstIndex(of: "]") else { throw .invalidHost(String(hostPort)) }
                hostText = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
                let after = hostPort[hostPort.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw .invalidHost(String(hostPort)) }
                    portText = after.dropFirst()
                }
            } else if let colon = hostPort.lastIndex(of: ":") {
                hostText = hostPort[..<colon]
                portText = hostPort[hostPort.index(after: colon)...]
            } else {
                hostText = hostPort
            }
            if let portText {
                port = try Self.parsePort(portText)
                portGiven = true
            }
            if !hostText.isEmpty {
                let decoded = try Self.decode(hostText, part: "host")
                guard !decoded.contains(where: { $0 == "/" || $0.isWhitespace }) else { throw .invalidHost(decoded) }
                host = decoded
            }
        }

        var tls: TLSMode?
        var passwordFilePath: String?
        var socketFolder: String?
        var rootCertificatePath: String?
        var seen = Set<String>()
        for (name, value) in query {
            guard seen.insert(name).inserted else { throw .repeatedParameter(name) }
            switch name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else { throw .unsupportedSSLMode(value) }
                tls = mode
            case "host":
                guard value.hasPrefix("/") else { throw .socketFolderNotAbsolute(value) }
                socketFolder = value
            case "port":
                guard !portGiven else { throw .repeatedParameter("port") }
                port = try Self.parsePort(Substring(value))
            case "sslrootcert":
                guard !value.isEmpty else { throw .invalidParameter(name: name, value: value) }
                rootCertificatePath = value
            case "passfile":
                guard value.hasPrefix("/") else { throw .invalidParameter(name: name, value: value) }
                passwordFilePath = value
            default:
                throw .unknownParameter(name)
            }
        }

        switch (host, socketFolder) {
        case (.some, .some):
            throw .hostTwice
        case (.some(let host), nil):
            endpoint = .tcp(host: host, port: port)
            if tls == nil { tls = .verifyFull }
        case (nil, .some(let folder)):
            guard tls == nil || tls == .disable else { throw .tlsOverUnixSocket }
            tls = .disable
            let trimmedFolder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            endpoint = .unixSocket(path: "\(trimmedFolder)/.s.PGSQL.\(port)")
        case (nil, nil):
            throw .missingHost
        }
        let mode = tls ?? .disable
        if rootCertificatePath != nil, mode == .disable { throw .rootCertificateWithoutVerify }
        self.tls = mode
        self.rootCertificatePath = rootCertificatePath
        self.passwordFilePath = passwordFilePath
    }

    /// The URL with the password replaced by `***`: safe to print, log and put in an error.
    public var redacted: String {
        // The same split as the parser's: user information up to the last "@", password after its
        // first ":".
        guard password != nil, let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<schemeEnd.upperBound]) + rest[..<colon] + ":***" + rest[at...]
    }

    /// Whether the bytes cross a network in the clear: TCP with `sslmode=disable`.
    public var isPlainTCP: Bool {
        if case .tcp = endpoint { return tls == .disable }
        return false
    }

    /// A short name of the server for messages: `host:port` or the socket path.
    public var serverName: String {
        switch endpoint {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket(let path): path
        }
    }

    private static func parsePort(_ text: Substring) throws(HubAddressError) -> Int {
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let port = Int(text), (1...65_535).contains(port) else {
            throw .invalidPort(String(text))
        }
        return port
    }

    private static func parseQuery(_ text: Substring) throws(HubAddressError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for item in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = item.firstIndex(of: "=") else { throw .invalidParameter(name: String(item), value: "") }
            let name = try decode(item[..<equals], part: "parameter name")
            let value = try decode(item[item.index(after: equals)...], part: "parameter \(name)")
            pairs.append((name, value))
        }
        return pairs
    }

    private static func decode(_ text: Substring, part: String) throws(HubAddressError) -> String {
        guard let decoded = String(text).removingPercentEncoding else { throw .invalidPercentEncoding(part: part) }
        return decoded
    }
}

extension HubAddress: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { redacted }
    public var debugDescription: String { "HubAddress(\(redacted))" }
    /// A `dump` shows the redacted URL only, never the stored password.
    public var customMirror: Mirror { Mirror(self, children: ["url": redacted], displayStyle: .struct) }
}

/// Why a hub URL was refused; each message names the part to fix and never repeats a password.
public enum HubAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAURL
    case surroundingWhitespace
    case unsupportedScheme(String)
    case fragmentNotAllowed
    case missingUser
    case missingHost
    case hostTwice
    case invalidHost(String)
    case invalidPort(String)
    case missingDatabase
    case invalidDatabase(String)
    case invalidPercentEncoding(part: String)
    case unknownParameter(String)
    case repeatedParameter(String)
    case invalidParameter(name: String, value: String)
    case unsupportedSSLMode(String)
    case socketFolderNotAbsolute(String)
    case tlsOverUnixSocket
    case rootCertificateWithoutVerify

    public var description: String {
        let forms = "expected postgres://user:password@host:port/database (or postgres://user@/database?host=/socket/folder)"
        switch self {
        case .notAURL: return "the hub address is not a URL: \(forms)"
        case .surroundingWhitespace: return "the hub address has spaces or a newline around it"
        case .unsupportedScheme(let scheme): return "the hub address starts with \(scheme)://: only postgres:// and postgresql:// are understood"
        case .fragmentNotAllowed: return "the hub address has a #fragment, after the host, which PostgreSQL URLs do not have"
        case .missingUser: return "the hub address names no user: \(forms)"
        case .missingHost: return "the hub address names no host: give one after the @, or a socket folder with ?host=/path"
        case .hostTwice: return "the hub address names both a host and a socket folder (?host=): keep one"
        case .invalidHost(let host): return "the hub address's host \"\(host)\" is not a host name or address"
        case .invalidPort(let port): return "the hub address's port \"\(port)\" is not a number from 1 to 65535"
        case .missingDatabase: return "the hub address names no database: add /database after the host"
        case .invalidDatabase(let name): return "the hub address's database \"\(name)\" has a slash in it"
        case .invalidPercentEncoding(let part): return "the hub address's \(part) has a % that is not followed by two hex digits (write a % itself as %25)"
        case .unknownParameter(let name): return "the hub address has the parameter \"\(name)\", which Ledgerly does not use (known: sslmode, host, port, sslrootcert, passfile)"
        case .repeatedParameter(let name): return "the hub address gives \"\(name)\" twice"
        case .invalidParameter(let name, let value): return "the hub address's parameter \"\(name)=\(value)\" is not valid"
        case .unsupportedSSLMode(let mode): return "sslmode=\(mode) is not supported: leave it out or say verify-full (TLS, certificate checked), or disable (plain TCP, which lets the network read the traffic)"
        case .socketFolderNotAbsolute(let folder): return "the socket folder \"\(folder)\" (?host=) must be an absolute path"
        case .tlsOverUnixSocket: return "PostgreSQL serves no TLS over a unix socket: use sslmode=disable with ?host=, or a TCP host"
        case .rootCertificateWithoutVerify: return "sslrootcert= names the certificate to trust for TLS, and sslmode=disable turns TLS off: drop one"
        }
    }
}
