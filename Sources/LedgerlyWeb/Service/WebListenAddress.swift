/// Where ledgerly-web listens: a loopback host and a port (D516). Anything beyond loopback is
/// refused for now: serving the home network needs HTTPS and device pairing, which are not
/// built yet, and a session cookie must never cross a network in the clear.
public struct WebListenAddress: Sendable, Equatable, CustomStringConvertible {
    public static let defaultPort = 8470
    public static let fallback = WebListenAddress(host: "127.0.0.1", port: defaultPort)

    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// "127.0.0.1:8470", "localhost:8470", "[::1]:8470" or a bare port ("8470"); port 0 picks
    /// a free one (tests). Throws a sentence naming what is wrong.
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
        } else if let colon = trimmed.lastIndex(of: ":") {
            host = String(trimmed[..<colon])
            portText = String(trimmed[trimmed.index(after: colon)...])
        }
        guard let port = Int(portText), (0...65535).contains(port) else { throw .badPort(text) }
        guard Self.isLoopback(host) else { throw .notLoopback(host) }
        self.init(host: host == "localhost" ? "127.0.0.1" : host, port: port)
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// What is wrong with an address, without saying where it came from: `--listen` and `web.json`
/// each name themselves before it.
public enum WebAddressError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case badPort(String)
    case notLoopback(String)

    public var description: String {
        switch self {
        case .unreadable(let text): "'\(text)' is not HOST:PORT (e.g. 127.0.0.1:8470)"
        case .badPort(let text): "'\(text)' has no port from 0 to 65535"
        case .notLoopback(let host): "'\(host)' is not a loopback address; ledgerly-web serves this computer only (127.0.0.1 or ::1) until HTTPS and device pairing are built"
        }
    }
}
