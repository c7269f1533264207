import Foundation

/// Where ledgerly-web listens: an IP address (or `localhost`) and a port (D516). A loopback
/// address is served as plain HTTP for the browser on this computer; any other (`0.0.0.0` for
/// every address of this computer, or one of its own) is served as HTTPS only, with the
/// self-signed certificate and device pairing (D590): a session cookie never crosses a network
/// in the clear.
public struct WebListenAddress: Sendable, Equatable, CustomStringConvertible {
    public static let defaultPort = 8470
    public static let fallback = WebListenAddress(host: "127.0.0.1", port: defaultPort)

    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// "127.0.0.1:8470", "localhost:8470", "[::1]:8470", "0.0.0.0:8470", "192.168.1.20:8470",
    /// "[::]:8470" or a bare port ("8470", on 127.0.0.1); port 0 picks a free one (tests).
    /// Throws a sentence naming what is wrong.
    public init(parsing text: String) throws(WebAddressError) {
        let trimmed = text.trimmingWhitespace
        var host = "127.0.0.1"
        var portText = trimmed
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { throw .unreadable(text) }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .unreadable(text) }
            portText = String(rest.dropFirst())
            guard Self.isIPv6(host) else { throw .notAnAddress(host) }
        } else if let colon = trimmed.lastIndex(of: ":") {
            host = String(trimmed[..<colon])
            portText = String(trimmed[trimmed.index(after: colon)...])
            guard host == "localhost" || Self.isIPv4(host) else { throw .notAnAddress(host) }
        }
        guard let port = Int(portText), (0...65535).contains(port) else { throw .badPort(text) }
        self.init(host: host == "localhost" ? "127.0.0.1" : host, port: port)
    }

    /// Loopback addresses are served as HTTP, all others as HTTPS only.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        return Self.isIPv4(host) && host.hasPrefix("127.")
    }

    /// Every address of this computer (`0.0.0.0`, `::`): the address to show is one of its own.
    public var isUnspecified: Bool { host == "0.0.0.0" || host == "::" }

    static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil && ($0.count == 1 || !$0.hasPrefix("0")) }
    }

    static func isIPv6(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, host, &address) == 1
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// What is wrong with an address, without saying where it came from: `--listen` and `web.json`
/// each name themselves before it.
public enum WebAddressError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case badPort(String)
    case notAnAddress(String)

    public var description: String {
        switch self {
        case .unreadable(let text): "'\(text)' is not HOST:PORT (e.g. 127.0.0.1:8470)"
        case .badPort(let text): "'\(text)' has no port from 0 to 65535"
        case .notAnAddress(let host): "'\(host)' is not an IP address (127.0.0.1 for this computer only, 0.0.0.0 for the home network over HTTPS, or one of this computer's own addresses; IPv6 in brackets, [::1])"
        }
    }
}
